import { parseArgs } from 'node:util';
import type { BenchTarget } from './stack.js';

const OPTIONS = {
  /** Comma-separated scenario names; default all of them (scenarioTable.ts). */
  only: { type: 'string' },
  members: { type: 'string', default: '100000' },
  duration: { type: 'string', default: '10' },
  connections: { type: 'string', default: '50' },
  /** `dev`: the Temporal dev server (SQLite, in memory); `prod`: the real server on PostgreSQL (docs/deployment.md). */
  target: { type: 'string', default: 'dev' },
  /**
   * `shared`: the api and the first worker in one thread of the bench process, one pool; `prod`: the api and each
   * worker in a process of their own, started by their entrypoints, as production runs them (bench/prodTopology.ts).
   */
  topology: { type: 'string', default: 'shared' },
  /** `--topology prod`: the api process also runs a worker and starts runs eagerly (API_EAGER_WORKER). */
  'api-eager-worker': { type: 'boolean', default: false },
  /** Temporal workers, each in a thread of its own (the first one also serves the api); default 1, 2 with `--target prod`. */
  workers: { type: 'string' },
  /** Giveaways opened by `giveaways-open` and `giveaways-end` (the size is 10,000: about 25 minutes here). */
  giveaways: { type: 'string', default: '1000' },
  /** `read` rounds (a bare and a full load) and `purge` pairs (paced reads without and with the purge), each in alternating order; the medians are reported. */
  'read-rounds': { type: 'string', default: '5' },
  /** Role changes sent by `discord-effects` from its two worker processes through the egress. */
  'discord-changes': { type: 'string', default: '1000' },
  /** XP changes per second posted by `xp-latency`. */
  rate: { type: 'string', default: '10' },
  /** Rows of the levels and invites leaderboards, and expired rows of `purge` (the goals are stated at 10,000,000). */
  rows: { type: 'string', default: '1000000' },
  /** Percent of its time the retention purge of `purge` spends deleting (production's share unless given; 100: no rest). */
  'purge-duty': { type: 'string' },
  /** Rows per batch of `purge`'s purge (production's unless given). */
  'purge-batch': { type: 'string' },
  /** Rows per second at most of `purge`'s purge (production's unless given). */
  'purge-rate': { type: 'string' },
  /** Reads per second of `purge`'s paced rounds (half what the api answered saturated, unless given). */
  'read-rate': { type: 'string' },
  /** Usable keys the api keeps in memory (CREDENTIAL_CACHE_ENTRIES); 0 looks every request's key up, as before issue 28. */
  'credential-cache': { type: 'string', default: '10000' },
  /** How the api checks responses (RESPONSE_CHECK): `parse` (the schema, every response) or `shape` (production's default). */
  'response-check': { type: 'string', default: 'shape' },
  /** `gateway-ready`: servers in the session and members in each (the size: 2,500 of 1,000). */
  'ready-guilds': { type: 'string', default: '2500' },
  'ready-members': { type: 'string', default: '1000' },
  /** `gateway-ingest`: the rising rates (messages/s, comma-separated), seconds per rate, and compression on/off pairs. */
  'ingest-rates': { type: 'string', default: '500,1000,1500,2000,2500,3000,4000,5000' },
  'ingest-step-seconds': { type: 'string', default: '5' },
  'ingest-rounds': { type: 'string', default: '1' },
  /** `gateway-restart`: servers written in, messages/s, and how long (the size: 100 servers at 500/s). */
  'restart-guilds': { type: 'string', default: '100' },
  'restart-rate': { type: 'string', default: '500' },
  'restart-seconds': { type: 'string', default: '30' },
  /** `commands`: level rows of the server, interactions/s, and how long (the size: 1,000,000 rows at 50/s). */
  'commands-rows': { type: 'string', default: '1000000' },
  'commands-rate': { type: 'string', default: '50' },
  'commands-seconds': { type: 'string', default: '60' },
} as const;

const parse = () => parseArgs({ options: OPTIONS });
export type BenchValues = ReturnType<typeof parse>['values'];

/**
 * The command line of `npm run bench`: its values, the Temporal target, the worker threads and the scenarios named.
 * Exits 2 with one line on a target or a scenario it does not know.
 */
export function parseBenchOptions<Name extends string>(known: Name[]): { values: BenchValues; target: BenchTarget; workers: number; names: Name[] } {
  const { values } = parse();
  if (values.target !== 'dev' && values.target !== 'prod') {
    console.error(`--target must be dev or prod (got "${values.target}").`);
    process.exit(2);
  }
  const target: BenchTarget = values.target;
  if (values.topology !== 'shared' && values.topology !== 'prod') {
    console.error(`--topology must be shared or prod (got "${values.topology}").`);
    process.exit(2);
  }
  const workers = Number(values.workers ?? (target === 'prod' ? 2 : 1));
  const names = (values.only ?? known.join(',')).split(',') as Name[];
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length > 0) {
    console.error(`Unknown scenario(s): ${unknown.join(', ')}. Known: ${known.join(', ')}`);
    process.exit(2);
  }
  return { values, target, workers, names };
}
