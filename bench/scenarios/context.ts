import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { TemporalGateway } from '../../src/core/temporal/gateway.js';

export interface ScenarioContext {
  db: Kysely<Database>;
  /** The database the api and worker use (for scenarios that start a process of their own). */
  databaseUrl: string;
  /** Base URLs of the api (routes under /api/v1) and of the bare app (routes under /bare). */
  fullUrl: string;
  bareUrl: string;
  apiKey: string;
  members: number;
  connections: number;
  durationSeconds: number;
  /** Rounds of `read` (a bare and a full load) and pairs of `purge` (paced reads without and with the purge), each in alternating order (`--read-rounds`). */
  readRounds: number;
  /** XP changes posted per second by `xp-latency` (`--rate`). */
  xpRatePerSecond: number;
  /** Rows of the levels and invites leaderboards (`--rows`). */
  leaderboardRows: number;
  /** The purge's share of time spent deleting (`--purge-duty`); production's when undefined. */
  purgeDutyPercent: number | undefined;
  /** Rows per batch of the purge (`--purge-batch`); production's when undefined. */
  purgeBatchRows: number | undefined;
  /** Rows per second at most of the purge (`--purge-rate`); production's when undefined. */
  purgeRowsPerSecond: number | undefined;
  /** Reads per second of `purge`'s paced rounds (`--read-rate`); half the saturated rate when undefined. */
  readRatePerSecond: number | undefined;
  /** CPU time (ms, user and system) the api thread has used so far: time on a core, not time waiting for one. */
  apiThreadCpuMs(): Promise<number>;
  /** `--topology prod`: CPU time (ms) used so far by each process (api, worker-N, load); undefined otherwise. */
  processCpuMs?: () => Promise<Record<string, number>>;
  /** Giveaways opened by `giveaways-open` and `giveaways-end` (`--giveaways`). */
  giveaways: number;
  /** Temporal workers polling the task queue (`--workers`). */
  workers: number;
  /** Temporal as the api sees it (for scenarios that start workflows themselves). */
  temporal: TemporalGateway;
  /** Where a scenario's own worker connects. */
  temporalAddress: string;
}
