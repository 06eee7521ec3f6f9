import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { migrateToLatest } from '../db/migrate.js';
import { createDatabase } from '../db/pool.js';
import type { Config } from '../src/core/config.js';
import { ensureDatabase, startEmbeddedPostgres, withDatabase } from '../process/infra/embeddedPostgres.js';
import { resolveTemporalBinary } from '../process/infra/temporalBinaries.js';
import { startTemporalDevServer } from '../process/infra/temporalDevServer.js';
import { readTemporalDevSettings } from '../process/infra/temporalDevSettings.js';

const BENCH_DATABASE = 'community_bot_bench';
const BENCH_PG_PORT = 54339;

export interface BenchStack {
  databaseUrl: string;
  temporalAddress: string;
  temporalNamespace: string;
  stop(): Promise<void>;
}

/**
 * PostgreSQL and Temporal for the benchmarks: DATABASE_URL and TEMPORAL_ADDRESS when set, otherwise an
 * embedded PostgreSQL kept in .dev/bench-pgdata (so the seeded data is reused between runs) and an
 * in-memory Temporal dev server.
 */
export async function startBenchStack(config: Config, root: string, log: (line: string) => void): Promise<BenchStack> {
  const stops: Array<() => Promise<void>> = [];
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

  let temporalAddress = config.temporal.address;
  let temporalNamespace = config.temporal.namespace;
  if (!temporalAddress) {
    const cliPath = await resolveTemporalBinary('temporal', config.temporal, log);
    const temporal = await startTemporalDevServer(await readTemporalDevSettings(join(root, 'temporal-dev.yml')), { cliPath, mode: 'test' });
    stops.push(temporal.stop);
    temporalAddress = temporal.address;
    temporalNamespace = temporal.namespace;
  }
  return {
    databaseUrl: serverUrl,
    temporalAddress,
    temporalNamespace,
    stop: async () => {
      for (const stop of stops.reverse()) await stop();
    },
  };
}
