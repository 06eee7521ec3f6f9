import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { migrateToLatest } from '../db/migrate.js';
import { createDatabase } from '../db/pool.js';
import type { Config } from '../src/core/config.js';
import { ensureDatabase, startEmbeddedPostgres, withDatabase } from '../process/infra/embeddedPostgres.js';
import { resolveTemporalBinary } from '../process/infra/temporalBinaries.js';
import { startTemporalDevServer } from '../process/infra/temporalDevServer.js';
import { readTemporalDevSettings } from '../process/infra/temporalDevSettings.js';
import { startTemporalServer } from '../process/infra/temporalServer.js';
import { resolveTemporalServerBinaries } from '../process/infra/temporalServerBinaries.js';

const BENCH_DATABASE = 'community_bot_bench';
const BENCH_PG_PORT = 54339;

/** Which Temporal the on-stack scenarios run against: the dev server (SQLite) or the real server (PostgreSQL). */
export type BenchTarget = 'dev' | 'prod';

export interface BenchStack {
  databaseUrl: string;
  temporalAddress: string;
  temporalNamespace: string;
  /** The real server's history shards; null for the dev server or a TEMPORAL_ADDRESS given. */
  historyShards: number | null;
  stop(): Promise<void>;
}

/**
 * PostgreSQL and Temporal for the benchmarks: DATABASE_URL and TEMPORAL_ADDRESS when set, otherwise an
 * embedded PostgreSQL kept in .dev/bench-pgdata (so the seeded data is reused between runs) and, by target, an
 * in-memory Temporal dev server or the real server with its databases on that PostgreSQL.
 */
export async function startBenchStack(config: Config, root: string, target: BenchTarget, log: (line: string) => void): Promise<BenchStack> {
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop();
  };
  try {
    const databaseUrl = await startPostgres(config, root, stops);
    const temporal = config.temporal.address
      ? { address: config.temporal.address, namespace: config.temporal.namespace, historyShards: null }
      : await startTemporal(config, root, target, databaseUrl, stops, log);
    return { databaseUrl, temporalAddress: temporal.address, temporalNamespace: temporal.namespace, historyShards: temporal.historyShards, stop: stopAll };
  } catch (err) {
    // A start that fails half-way (a Temporal binary missing) leaves nothing running, PostgreSQL included.
    await stopAll();
    throw err;
  }
}

async function startPostgres(config: Config, root: string, stops: Array<() => Promise<void>>): Promise<string> {
  let serverUrl = config.database.url;
  if (!serverUrl) {
    const dataDir = join(root, '.dev', 'bench-pgdata');
    await mkdir(dataDir, { recursive: true });
    const postgres = await startEmbeddedPostgres({ dataDir, port: BENCH_PG_PORT, persistent: true });
    stops.push(postgres.stop);
    serverUrl = withDatabase(postgres.url, BENCH_DATABASE);
    await ensureDatabase(postgres.url, BENCH_DATABASE);
  }
  const migrations = createDatabase(serverUrl, 2);
  await migrateToLatest(migrations.db).finally(() => migrations.close());
  return serverUrl;
}

async function startTemporal(config: Config, root: string, target: BenchTarget, databaseUrl: string, stops: Array<() => Promise<void>>, log: (line: string) => void) {
  const settings = await readTemporalDevSettings(join(root, 'temporal-dev.yml'));
  if (target === 'dev') {
    const cliPath = await resolveTemporalBinary('temporal', config.temporal, log);
    const temporal = await startTemporalDevServer(settings, { cliPath, mode: 'test' });
    stops.push(temporal.stop);
    return { address: temporal.address, namespace: temporal.namespace, historyShards: null };
  }
  const workDir = join(root, '.dev', 'bench-temporal-server');
  await mkdir(workDir, { recursive: true });
  const binaries = await resolveTemporalServerBinaries(config.temporal, log);
  const { namespace, historyShards } = config.temporal;
  // On the bench's own PostgreSQL each run gets a new cluster, as from the in-memory dev server; an operator's
  // DATABASE_URL keeps what its server holds.
  const fresh = !config.database.url;
  const temporal = await startTemporalServer({ binaries, postgresUrl: databaseUrl, namespace, settings, historyShards, fresh, workDir, log });
  stops.push(temporal.stop);
  return { address: temporal.address, namespace: temporal.namespace, historyShards };
}
