import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Connection, isGrpcServiceError } from '@temporalio/client';
import pg from 'pg';
import { msToTs } from '@temporalio/common/lib/time.js';
import proto from '@temporalio/proto';
import { ensureDatabase } from './embeddedPostgres.js';
import { freePort, freePortBetween } from './freePort.js';
import type { TemporalDevSettings } from './temporalDevSettings.js';
import type { RunningTemporal } from './temporalDevServer.js';
import type { TemporalServerBinaries } from './temporalServerBinaries.js';
import { TEMPORAL_DATABASES, temporalDynamicConfigYaml, temporalServerConfigYaml, type TemporalServerPorts } from './temporalServerConfig.js';

const run = promisify(execFile);
// A CommonJS package: its namespace comes through the default export under ESM.
const { IndexedValueType } = proto.temporal.api.enums.v1;

export interface TemporalServerOptions {
  binaries: TemporalServerBinaries;
  /** Any database's URL on the PostgreSQL that holds (or is to hold) the server's two databases. */
  postgresUrl: string;
  /** The namespace to create (the real server creates none, not even `default`). */
  namespace: string;
  /** Search attributes and dynamic config, from temporal-dev.yml. */
  settings: Pick<TemporalDevSettings, 'searchAttributes' | 'dynamicConfig'>;
  historyShards: number;
  /** Drops the server's databases first: a cluster of the run's own, as the in-memory dev server gives. */
  fresh: boolean;
  /** Where the config files and server.log are written. */
  workDir: string;
  log: (line: string) => void;
}

export interface RunningTemporalServer extends RunningTemporal {
  /** As the server reports it (GetSystemInfo). */
  version: string;
  logFile: string;
}

const INDEXED_VALUE_TYPE: Record<TemporalDevSettings['searchAttributes'][string], proto.temporal.api.enums.v1.IndexedValueType> = {
  Keyword: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  Text: IndexedValueType.INDEXED_VALUE_TYPE_TEXT,
  Int: IndexedValueType.INDEXED_VALUE_TYPE_INT,
  Double: IndexedValueType.INDEXED_VALUE_TYPE_DOUBLE,
  Bool: IndexedValueType.INDEXED_VALUE_TYPE_BOOL,
  Datetime: IndexedValueType.INDEXED_VALUE_TYPE_DATETIME,
  KeywordList: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST,
};
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;
const GRPC_ALREADY_EXISTS = 6;

/**
 * The real Temporal server (not the dev server) on PostgreSQL: its databases created and their schemas set or
 * brought up to date (so an existing cluster is reused), the server started on free loopback ports, the
 * namespace and the search attributes created once it answers.
 */
export async function startTemporalServer(options: TemporalServerOptions): Promise<RunningTemporalServer> {
  const pg = new URL(options.postgresUrl);
  const postgres = { host: pg.hostname, port: Number(pg.port || 5432), user: decodeURIComponent(pg.username), password: decodeURIComponent(pg.password) };
  for (const database of Object.values(TEMPORAL_DATABASES)) {
    if (options.fresh) await dropDatabase(options.postgresUrl, database);
    await ensureDatabase(options.postgresUrl, database);
  }
  await applySchemas(options.binaries.sqlTool, postgres);

  const ports = await freePorts();
  const configFile = join(options.workDir, 'temporal-server.yaml');
  const dynamicConfigPath = join(options.workDir, 'temporal-dynamic-config.yaml');
  await writeFile(dynamicConfigPath, temporalDynamicConfigYaml(options.settings.dynamicConfig));
  // It holds the database password.
  await writeFile(configFile, temporalServerConfigYaml({ postgres, historyShards: options.historyShards, ports, dynamicConfigPath, logLevel: 'warn' }), { mode: 0o600 });

  const logFile = join(options.workDir, 'temporal-server.log');
  const output = await open(logFile, 'a');
  const child = spawn(options.binaries.server, ['--config-file', configFile, '--allow-no-auth', 'start'], { stdio: ['ignore', output.fd, output.fd] });
  await output.close();
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killed = await Promise.race([exited.then(() => false), sleep(STOP_TIMEOUT_MS).then(() => true)]);
    if (killed) child.kill('SIGKILL');
  };
  const address = `127.0.0.1:${ports.frontend}`;
  try {
    options.log(`Temporal server starting on ${address} (${options.historyShards} history shards; log in ${logFile})...`);
    const connection = await connectWhenUp(address, () => child.exitCode !== null, logFile);
    try {
      const { serverVersion } = await connection.workflowService.getSystemInfo({});
      await ensureNamespace(connection, options.namespace);
      await ensureSearchAttributes(connection, options.namespace, options.settings.searchAttributes);
      return { address, namespace: options.namespace, uiUrl: null, version: serverVersion ?? 'unknown', logFile, stop };
    } finally {
      await connection.close();
    }
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Names here are the fixed identifiers of TEMPORAL_DATABASES, not input. */
async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

type PostgresEndpoint = { host: string; port: number; user: string; password: string };

/** setup-schema only creates the version tables (and keeps a newer version); update-schema applies what is missing. */
async function applySchemas(sqlTool: string, postgres: PostgresEndpoint): Promise<void> {
  const schemas = [
    [TEMPORAL_DATABASES.default, 'postgresql/v12/temporal'],
    [TEMPORAL_DATABASES.visibility, 'postgresql/v12/visibility'],
  ] as const;
  // The password goes through the environment, not the command line that every process can read.
  const env = { SQL_PASSWORD: postgres.password };
  for (const [database, schemaName] of schemas) {
    const common = ['--ep', postgres.host, '--port', String(postgres.port), '--user', postgres.user, '--plugin', 'postgres12', '--db', database];
    for (const command of [['setup-schema', '-v', '0.0'], ['update-schema', '--schema-name', schemaName]]) {
      await run(sqlTool, [...common, ...command], { env }).catch((err: { stderr?: string; message: string }) => {
        throw new Error(`temporal-sql-tool ${command[0]} on ${database} failed: ${(err.stderr || err.message).trim().split('\n').slice(-2).join(' | ')}`);
      });
    }
  }
}

// The server stores membership ports in a PostgreSQL smallint: a port the system picks (32768 and up here) fails
// its start with "out of range for type smallint".
const MEMBERSHIP_PORTS = { low: 10_000, high: 32_767 };

async function freePorts(): Promise<TemporalServerPorts> {
  const membership = () => freePortBetween(MEMBERSHIP_PORTS.low, MEMBERSHIP_PORTS.high);
  return {
    frontend: await freePort(),
    history: await freePort(),
    matching: await freePort(),
    worker: await freePort(),
    frontendMembership: await membership(),
    historyMembership: await membership(),
    matchingMembership: await membership(),
    workerMembership: await membership(),
  };
}

async function connectWhenUp(address: string, exited: () => boolean, logFile: string): Promise<Connection> {
  const deadline = performance.now() + START_TIMEOUT_MS;
  for (;;) {
    if (exited()) throw new Error(`The Temporal server exited during its start: see ${logFile}.`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      await connection.workflowService.getSystemInfo({}).catch(async (err: unknown) => {
        await connection.close();
        throw err;
      });
      return connection;
    } catch {
      if (performance.now() > deadline) throw new Error(`The Temporal server did not answer on ${address} within ${START_TIMEOUT_MS / 1000} s: see ${logFile}.`);
      await sleep(500);
    }
  }
}

async function ensureNamespace(connection: Connection, namespace: string): Promise<void> {
  await untilItWorks(async () => {
    try {
      // The dev server's retention: closed runs are kept a day.
      await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
    } catch (err) {
      if (!(isGrpcServiceError(err) && err.code === GRPC_ALREADY_EXISTS)) throw err;
    }
  });
}

/** Retries `attempt` while the services of a server just started find each other; its last error after the start timeout. */
async function untilItWorks(attempt: () => Promise<void>): Promise<void> {
  const deadline = performance.now() + START_TIMEOUT_MS;
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (performance.now() > deadline) throw err;
      await sleep(500);
    }
  }
}

/**
 * Adds the search attributes the namespace lacks. A namespace just registered may not be known to every service
 * yet (their namespace caches refresh every few seconds), so the calls are retried until a query on them answers.
 */
async function ensureSearchAttributes(connection: Connection, namespace: string, wanted: TemporalDevSettings['searchAttributes']): Promise<void> {
  await untilItWorks(async () => {
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
    const missing = Object.entries(wanted).filter(([name]) => !customAttributes?.[name]);
    if (missing.length > 0) {
      await connection.operatorService.addSearchAttributes({
        namespace,
        searchAttributes: Object.fromEntries(missing.map(([name, type]) => [name, INDEXED_VALUE_TYPE[type]])),
      });
    }
    // A query on each attribute answers once the namespace and its attributes are usable for visibility.
    const query = Object.keys(wanted).map((name) => `${name} IS NOT NULL`).join(' OR ');
    await connection.workflowService.countWorkflowExecutions({ namespace, query });
  });
}
