import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { createDatabase } from '../db/pool.js';
import { loadConfig } from '../src/core/config.js';
import { runBankRead } from './scenarios/bankRead.js';
import { runBankWrite } from './scenarios/bankWrite.js';
import { runLeaderboard } from './scenarios/levelsLeaderboard.js';
import { runInvitesLeaderboard } from './scenarios/invitesLeaderboard.js';
import { runShopBuy } from './scenarios/shopBuy.js';
import { runWebhookLatency, runWebhookSlowReceiver, runWebhookThroughput } from './scenarios/webhooks.js';
import { runTemporalCeiling } from './scenarios/temporalCeiling.js';
import { runXpLatency } from './scenarios/xpLatency.js';
import { runFlowRun } from './scenarios/flowRun.js';
import { runGiveawaysOpen } from './scenarios/giveawaysOpen.js';
import { runGiveawaysDraw } from './scenarios/giveawaysDraw.js';
import { runGiveawaysEnd } from './scenarios/giveawaysEnd.js';
import { runDiscordEffects } from './scenarios/discordEffects.js';
import { runGatewayIngest } from './scenarios/gatewayIngest.js';
import { runGatewayReady } from './scenarios/gatewayReady.js';
import { runGatewayRestart } from './scenarios/gatewayRestart.js';
import { runCommands } from './scenarios/commandsLatency.js';
import { runPurge } from './scenarios/purge.js';
import type { ScenarioContext } from './scenarios/context.js';
import { createBenchKey, seedBenchGuild } from './seed.js';
import type { ServerThreadData } from './serverThread.js';
import { startBenchStack, type BenchTarget } from './stack.js';

// Latency scenarios first: `write` and `webhook-throughput` leave a backlog of workflows that Temporal
// keeps draining for a minute or two, which would slow whatever ran next.
const SCENARIOS = {
  read: runBankRead,
  'xp-latency': runXpLatency,
  leaderboard: runLeaderboard,
  'invites-leaderboard': runInvitesLeaderboard,
  purge: runPurge,
  'webhook-latency': runWebhookLatency,
  'webhook-slow-receiver': runWebhookSlowReceiver,
  'flow-run': runFlowRun,
  write: runBankWrite,
  'shop-buy': runShopBuy,
  'webhook-throughput': runWebhookThroughput,
  'temporal-ceiling': runTemporalCeiling,
  // Last: the open giveaways keep the worker busy with their ends for minutes.
  draw: runGiveawaysDraw,
  'giveaways-end': runGiveawaysEnd,
  'giveaways-open': runGiveawaysOpen,
} as const;
// Scenarios that need neither PostgreSQL, Temporal nor the api: run first, and alone they start none of them (the
// stack's fixed PostgreSQL port and its 100,000-member seed are not theirs to wait for).
const STANDALONE = {
  // The Discord adapter against the fake Discord with Discord's limits.
  'discord-effects': () => runDiscordEffects(Number(values['discord-changes'])),
  // One bot process fed MESSAGE_CREATE by the fake gateway, with a PostgreSQL of its own.
  'gateway-ingest': runGatewayIngest,
  // One new session of many servers: time to READY, to servers handled and to members reconciled, REST spent.
  'gateway-ready': () => runGatewayReady({ guilds: Number(values['ready-guilds']), members: Number(values['ready-members']) }),
  // `npm run bot` fed messages while it is stopped (SIGTERM) and killed (SIGKILL): each counted once.
  'gateway-restart': () => runGatewayRestart({ guilds: Number(values['restart-guilds']), rate: Number(values['restart-rate']), seconds: Number(values['restart-seconds']) }),
  // `/rank`, `/balance` and `/leaderboard` through the fake gateway to `npm run bot`, timed from each interaction's snowflake.
  commands: () => runCommands({ rows: Number(values['commands-rows']), rate: Number(values['commands-rate']), seconds: Number(values['commands-seconds']) }),
} as const;
type ScenarioName = keyof typeof SCENARIOS | keyof typeof STANDALONE;
type ScenarioResult = Awaited<ReturnType<(typeof SCENARIOS)[keyof typeof SCENARIOS] | (typeof STANDALONE)[keyof typeof STANDALONE]>>;

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: [...Object.keys(STANDALONE), ...Object.keys(SCENARIOS)].join(',') },
    members: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    /** `dev`: the Temporal dev server (SQLite, in memory); `prod`: the real server on PostgreSQL (docs/deployment.md). */
    target: { type: 'string', default: 'dev' },
    /** Temporal workers, each in a thread of its own (the first one also serves the api); default 1, 2 with `--target prod`. */
    workers: { type: 'string' },
    /** Giveaways opened by `giveaways-open` and `giveaways-end` (the size is 10,000: about 25 minutes here). */
    giveaways: { type: 'string', default: '1000' },
    /** `read` rounds, each a bare and a full load in alternating order; the median ratio is reported. */
    'read-rounds': { type: 'string', default: '5' },
    /** Role changes sent by `discord-effects` from its two worker processes through the egress. */
    'discord-changes': { type: 'string', default: '1000' },
    /** XP changes per second posted by `xp-latency`. */
    rate: { type: 'string', default: '10' },
    /** Rows of the levels and invites leaderboards, and expired rows of `purge` (the goals are stated at 10,000,000). */
    rows: { type: 'string', default: '1000000' },
    /** Usable keys the api keeps in memory (CREDENTIAL_CACHE_ENTRIES); 0 looks every request's key up, as before issue 28. */
    'credential-cache': { type: 'string', default: '10000' },
    /** How the api checks responses (RESPONSE_CHECK): `parse` (the schema, every response) or `shape` (production's default). */
    'response-check': { type: 'string', default: 'shape' },
    /** `gateway-ready`: servers in the session and members in each (the size: 2,500 of 1,000). */
    'ready-guilds': { type: 'string', default: '2500' },
    'ready-members': { type: 'string', default: '1000' },
    /** `gateway-restart`: servers written in, messages/s, and how long (the size: 100 servers at 500/s). */
    'restart-guilds': { type: 'string', default: '100' },
    'restart-rate': { type: 'string', default: '500' },
    'restart-seconds': { type: 'string', default: '30' },
    /** `commands`: level rows of the server, interactions/s, and how long (the size: 1,000,000 rows at 50/s). */
    'commands-rows': { type: 'string', default: '1000000' },
    'commands-rate': { type: 'string', default: '50' },
    'commands-seconds': { type: 'string', default: '60' },
  },
});
if (values.target !== 'dev' && values.target !== 'prod') {
  console.error(`--target must be dev or prod (got "${values.target}").`);
  process.exit(2);
}
const target: BenchTarget = values.target;
const workers = Number(values.workers ?? (target === 'prod' ? 2 : 1));
const names = values.only.split(',') as ScenarioName[];
const unknown = names.filter((n) => !(n in SCENARIOS) && !(n in STANDALONE));
if (unknown.length > 0) {
  console.error(`Unknown scenario(s): ${unknown.join(', ')}. Known: ${[...Object.keys(STANDALONE), ...Object.keys(SCENARIOS)].join(', ')}`);
  process.exit(2);
}

const root = fileURLToPath(new URL('..', import.meta.url));
const log = (line: string) => console.log(`[bench] ${line}`);
const members = Number(values.members);
const results: ScenarioResult[] = [];
for (const name of names.filter((n): n is keyof typeof STANDALONE => n in STANDALONE)) {
  log(`running ${name}...`);
  results.push(await STANDALONE[name]());
}
const onStack = names.filter((n): n is keyof typeof SCENARIOS => n in SCENARIOS);
let temporal: { target: BenchTarget; serverVersion: string; historyShards: number | null; workers: number } | null = null;
if (onStack.length > 0) results.push(...(await runOnStack(onStack)));
addCeilingRatio(results);
const report = {
  recordedAt: new Date().toISOString(),
  machine: { node: process.version, cpus: (await import('node:os')).cpus().length },
  dataset: onStack.length > 0 ? { members, accountsWithLedger: members } : null,
  temporal,
  results,
};
await mkdir(new URL('./results/', import.meta.url), { recursive: true });
const file = new URL(`./results/run-${report.recordedAt.replace(/[:.]/g, '-')}.json`, import.meta.url);
await writeFile(file, JSON.stringify(report, null, 2));
printTable(results);
log(`results written to ${fileURLToPath(file)}`);

/** The scenarios that drive the api and worker: PostgreSQL and Temporal started (or reused), the guild seeded. */
async function runOnStack(onStack: Array<keyof typeof SCENARIOS>) {
  const stack = await startBenchStack(loadConfig(), root, target, log);
  const { db, close } = createDatabase(stack.databaseUrl, 4);
  const threads: Worker[] = [];
  try {
    await seedBenchGuild(db, members, log);
    const taskQueue = `bench-${randomUUID()}`;
    const startThread = (role: ServerThreadData['role']) => {
      const thread = new Worker(new URL('./serverThread.boot.mjs', import.meta.url), {
        workerData: {
          databaseUrl: stack.databaseUrl,
          temporalAddress: stack.temporalAddress,
          temporalNamespace: stack.temporalNamespace,
          taskQueue,
          role,
          credentialCacheEntries: Number(values['credential-cache']),
          responseCheck: values['response-check'],
        } satisfies ServerThreadData,
      });
      threads.push(thread);
      return new Promise<{ fullPort: number; barePort: number }>((resolve, reject) => {
        thread.once('message', resolve);
        thread.once('error', reject);
      });
    };
    const ports = await startThread('api+worker');
    const apiThread = threads[0]!;
    for (let i = 1; i < workers; i++) await startThread('worker');
    // The thread's own event loop utilization, read from this side (worker.performance).
    const apiThreadBusyMs = async () => apiThread.performance.eventLoopUtilization().active;
    const ctx: ScenarioContext = {
      apiThreadBusyMs,
      db,
      databaseUrl: stack.databaseUrl,
      fullUrl: `http://127.0.0.1:${ports.fullPort}`,
      bareUrl: `http://127.0.0.1:${ports.barePort}`,
      apiKey: await createBenchKey(db),
      members,
      connections: Number(values.connections),
      durationSeconds: Number(values.duration),
      readRounds: Number(values['read-rounds']),
      xpRatePerSecond: Number(values.rate),
      leaderboardRows: Number(values.rows),
      workers,
      giveaways: Number(values.giveaways),
      temporal: {
        client: new Client({ connection: Connection.lazy({ address: stack.temporalAddress }), namespace: stack.temporalNamespace }),
        taskQueue,
      },
      temporalAddress: stack.temporalAddress,
    };
    const { serverVersion } = await ctx.temporal.client.workflowService.getSystemInfo({});
    temporal = { target, serverVersion: serverVersion ?? 'unknown', historyShards: stack.historyShards, workers };
    log(`Temporal ${target === 'prod' ? 'server' : 'dev server'} ${temporal.serverVersion} at ${stack.temporalAddress}, ${workers} worker(s)`);
    const results = [];
    for (const name of onStack) {
      log(`running ${name}...`);
      results.push(await SCENARIOS[name](ctx));
    }
    return results;
  } finally {
    await Promise.all(
      threads.map((thread) => {
        const exited = new Promise((resolve) => thread.once('exit', resolve));
        thread.postMessage('stop');
        return exited;
      }),
    );
    await close();
    await stack.stop();
  }
}

/** webhook-throughput's deliveries/s over temporal-ceiling's empty workflows/s, when both ran. */
function addCeilingRatio(results: ScenarioResult[]) {
  const ceiling = results.find((r) => r.scenario === 'temporal-ceiling');
  const throughput = results.find((r) => r.scenario === 'webhook-throughput');
  if (ceiling && throughput) throughput.ratioToCeiling = throughput.runs.map((run) => Math.round((run.deliveriesPerSecond / ceiling.workflowsPerSecond.empty) * 10) / 10);
}

function printTable(results: ScenarioResult[]) {
  const rows: string[][] = [['scenario', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'note']];
  for (const r of results) {
    if (r.scenario === 'read') {
      const spread = `${r.ratioSpread.min}-${r.ratioSpread.max}`;
      rows.push(['read (full chain)', String(r.full.requestsPerSecond), String(r.full.latencyMs.p50), String(r.full.latencyMs.p99), String(r.full.non2xx), `median ratio ${r.ratio} of ${r.rounds.length} rounds (spread ${spread}; goal >= 0.7)`]);
      rows.push(['read (bare route)', String(r.bare.requestsPerSecond), String(r.bare.latencyMs.p50), String(r.bare.latencyMs.p99), String(r.bare.non2xx), 'the median round']);
      const t = r.threadTimeRatioSpread;
      rows.push(['read (api thread time)', '-', '-', '-', '-', `bare/full time per request: median ${r.threadTimeRatio} (spread ${t.min}-${t.max}); ${r.bare.apiThreadUsPerRequest} vs ${r.full.apiThreadUsPerRequest} µs in the median round`]);
    } else if (r.scenario === 'webhook-latency') {
      rows.push(['webhook-latency', String(r.ratePerSecond), String(r.latencyMs.p50), String(r.latencyMs.p99), String(r.transactions - r.delivered), '201 to receiver (goal p50 < 200 ms)']);
      const b = r.burst;
      rows.push(['webhook-latency burst', String(Math.round(b.transactions / b.seconds)), String(b.latencyMs.p50), String(b.latencyMs.p99), String(b.transactions - b.delivered), `${b.transactions} in ${b.seconds} s (goal p50 <= 500 ms)`]);
    } else if (r.scenario === 'webhook-slow-receiver') {
      rows.push(['webhook-slow-receiver fast', String(r.ratePerSecond), String(r.fast.latencyMs.p50), String(r.fast.latencyMs.p99), String(r.transactions - r.fast.delivered), 'beside one answering after 9 s']);
      rows.push(['webhook-slow-receiver slow', String(r.ratePerSecond), String(r.slow.latencyMs.p50), String(r.slow.latencyMs.p99), String(r.transactions - r.slow.delivered), '']);
    } else if (r.scenario === 'webhook-throughput') {
      r.runs.forEach((run, i) => {
        const ratio = r.ratioToCeiling?.[i] !== undefined ? `, ${r.ratioToCeiling[i]}x ceiling` : '';
        rows.push([`webhook-throughput x${run.endpoints}`, String(run.deliveriesPerSecond), '-', '-', String(run.expected - run.delivered), `deliveries/s, ${run.duplicates} duplicated${ratio} (goal >= 10x)`]);
      });
    } else if (r.scenario === 'temporal-ceiling') {
      const w = r.workflowsPerSecond;
      rows.push(['temporal-ceiling', String(w.empty), '-', '-', '-', `empty workflows/s, one worker (${w.oneActivity}/s with one activity)`]);
    } else if (r.scenario === 'xp-latency') {
      const l = r.postToDoneMs;
      rows.push(['xp-latency', String(r.achievedRatePerSecond), String(l.p50), String(l.p99), String(r.failed), `p95 ${l.p95} ms; POST to done at ${r.targetRatePerSecond}/s, ${r.completedRatePerSecond} done/s (goal p99 <= 200 ms at 20/s)`]);
    } else if (r.scenario === 'flow-run') {
      const l = r.requestTo200Ms;
      rows.push(['flow-run', String(r.achievedRatePerSecond), String(l.p50), String(l.p99), String(r.notSuccess), `p95 ${l.p95} ms; POST wait=true to 200, three-node flow`]);
    } else if (r.scenario === 'leaderboard') {
      for (const [name, load] of Object.entries(r.pages)) {
        rows.push([`leaderboard ${name}`, String(load.requestsPerSecond), String(load.latencyMs.p50), String(load.latencyMs.p99), String(load.non2xx), `${r.levelRows.toLocaleString('en-US')} rows; goal p99 <= 50 ms`]);
      }
    } else if (r.scenario === 'giveaways-open') {
      const d = r.endedDelayMs;
      rows.push(['giveaways-open', String(r.startRatePerSecond.active), String(d.p50), String(d.p99), String(r.giveaways - r.ended), `${r.giveaways} giveaways, cache ${r.maxCachedWorkflows}; active/s; endsAt to giveaways.ended; RSS ${r.rssMb.workerReady} -> max ${r.rssMb.maxWhileOpen} MB`]);
    } else if (r.scenario === 'giveaways-end') {
      const l = r.latenessMs;
      const m = r.workerRssMb;
      const h = r.workerHeapMb;
      rows.push(['giveaways-end', '-', String(l.end.p50), String(l.end.p99), String(r.giveaways - r.ended),
        `${r.giveaways} ends over ${r.endSpreadSeconds} s: endsAt to draw+edit+event (goal p99 <= 10 s); draw p99 ${l.draw.p99}, edit p99 ${l.postEdited.p99}, event p99 ${l.event.p99} ms; worker RSS ${m.ready} -> ${m.maxWhileOpen} open, max ${m.max} MB (goal <= 300; V8 heap ${h.ready} -> ${h.maxWhileOpen}, max ${h.max})`]);
    } else if (r.scenario === 'draw') {
      rows.push(['draw', '-', String(r.drawActivityMs), '-', '-', `${r.entrants} entrants, ${r.entries} tickets, ${r.winners} winners, ${r.checkedEntrants} checked; draw activity ms (retry ${r.retryMs} ms)`]);
    } else if (r.scenario === 'discord-effects') {
      rows.push(['discord-effects', String(r.changesPerSecond), '-', '-', String(r.rateLimited), `${r.changes} role changes from ${r.workers} worker processes through the egress in ${r.seconds} s (limits allow ${r.fastestSeconds} s), ${r.rateLimitedShare}% 429, ${r.lost} lost, ${r.doubled} doubled`]);
    } else if (r.scenario === 'gateway-ingest') {
      const l = r.latencyAt200.dispatchToCommitMs;
      rows.push(['gateway-ingest at 200/s', String(r.latencyAt200.ratePerSecond), String(l.p50), String(l.p99), String(r.latencyAt200.sent - r.latencyAt200.committed), 'MESSAGE_CREATE to XP committed (goal p99 < 100 ms)']);
      const top = r.steps.find((s) => s.ratePerSecond === r.maxKeptUpRatePerSecond);
      rows.push([
        'gateway-ingest max',
        String(r.maxKeptUpRatePerSecond),
        String(top?.dispatchToCommitMs.p50 ?? '-'),
        String(top?.dispatchToCommitMs.p99 ?? '-'),
        String(r.messagesSent - r.messagesCounted),
        `msg/s kept up with, XP applied (goal >= 2000); ${r.messagesCounted}/${r.messagesSent} counted, XP ${r.xpApplied}/${r.xpExpected}`,
      ]);
    } else if (r.scenario === 'gateway-ready') {
      const q = r.requests;
      rows.push([
        'gateway-ready',
        '-',
        '-',
        '-',
        String(r.rateLimited),
        `${r.guilds} servers x ${r.membersPerGuild}: READY ${r.readyMs} ms, servers ${r.guildsHandledMs} ms, reconciled ${r.reconciledMs} ms; REST ${q.memberPages} member pages, ${q.invites} invites, ${q.other} other; ${r.connections} connection(s), ${r.resumes} resumes, ${r.invalidRequests} invalid`,
      ]);
    } else if (r.scenario === 'gateway-restart') {
      rows.push([
        'gateway-restart',
        String(r.achievedRatePerSecond),
        '-',
        '-',
        String(r.lost),
        `${r.counted}/${r.sent} counted over ${r.guilds} servers, XP ${r.xpApplied}/${r.xpExpected}, SIGTERM then SIGKILL; caught up ${r.catchUpMs} ms after the last; ${r.identifies} identify, ${r.resumes} resumes, ${r.invalidRequests} invalid`,
      ]);
    } else if (r.scenario === 'commands') {
      const f = r.firstAnswerMs;
      const per = Object.entries(r.byCommand).map(([name, c]) => `/${name} p99 ${c.firstAnswerMs.p99}`).join(', ');
      rows.push([
        'commands',
        String(r.achievedRatePerSecond),
        String(f.p50),
        String(f.p99),
        String(r.pastThreeSeconds),
        `max ${f.max} ms; ${r.sent} interactions, ${r.levelRows.toLocaleString('en-US')} level rows; snowflake to first answer (goal p99 <= 500, none past 3 s); ${per}; text p99 ${r.textMs.p99} ms; ${r.unanswered} unanswered, ${r.refusedAnswers} refused`,
      ]);
    } else if (r.scenario === 'purge') {
      rows.push(['purge reads before', String(r.before.requestsPerSecond), String(r.before.latencyMs.p50), String(r.before.latencyMs.p99), String(r.before.non2xx), `${r.expiredRows.toLocaleString('en-US')} expired rows`]);
      const p = r.purge;
      rows.push(['purge reads during', String(r.during.requestsPerSecond), String(r.during.latencyMs.p50), String(r.during.latencyMs.p99), String(r.during.non2xx),
        `p99 ${r.p99ChangePercent >= 0 ? '+' : ''}${r.p99ChangePercent}% (goal < 20 at 10,000,000); purged ${p.rows.toLocaleString('en-US')} rows in ${p.seconds} s, ${p.batches} batches`]);
    } else if (r.scenario === 'shop-buy') {
      rows.push(['shop-buy', String(r.throughput.requestsPerSecond), String(r.throughput.latencyMs.p50), String(r.throughput.latencyMs.p99), String(r.throughput.non2xx), `${r.throughput.sold} sold; scarce: ${r.scarce.sold}/${r.scarce.stock} sold, ledger mismatches ${r.ledgerMismatches}`]);
    } else {
      rows.push(['write', String(r.load.requestsPerSecond), String(r.load.latencyMs.p50), String(r.load.latencyMs.p99), String(r.load.non2xx), `ledger mismatches ${r.ledgerMismatches}`]);
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
}
