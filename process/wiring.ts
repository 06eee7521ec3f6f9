import type { Server } from 'node:http';
import { Client, Connection, type WorkflowClientInterceptor } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import type { Kysely } from 'kysely';
import { createApp } from '../api/app.js';
import type { AppDeps } from '../api/context.js';
import { KeyHitCounter } from '../api/keyHitCounter.js';
import { createDatabase, type DatabaseHandle, type SessionOptions } from '../db/pool.js';
import type { Database } from '../db/schema.js';
import { oldestUnstartedEventAt } from '../db/shared/events.js';
import { systemClock } from '../src/core/clock.js';
import { measureFrom, platformMetrics, scrape } from '../src/core/metrics.js';
import type { Config } from '../src/core/config.js';
import type { BudgetProcess } from '../src/core/settings/databaseSettings.js';
import type { Logger } from '../src/core/logger.js';

import { createMemberCache } from '../src/core/memberCache.js';
import { CredentialCache } from '../src/keys/credentialCache.js';
import { connectWorkerConnection, temporalConnectionOptions } from '../src/core/temporal/connection.js';
import type { CredentialSource } from '../src/core/temporal/credentialSource.js';
import type { TemporalGateway } from '../src/core/temporal/gateway.js';
import { rotatingGateway } from '../src/core/temporal/rotatingClient.js';
import { ensureSchedules } from '../src/core/temporal/schedules.js';
import { runStartRelay } from '../src/core/temporal/startRelay.js';
import { AREAS } from './areas.js';
import { activityCancellation, createPlatform, processDiscordLatch } from './platform.js';
import { collectRelays, collectRetiredSchedules, collectRoutes, collectSchedules, collectWorkerStartSteps } from './registry.js';
import { checkConnectionBudget } from './ops/connectionBudget.js';
import { startGracefulServer } from './ops/gracefulServer.js';
import { opsEndpoints } from './ops/opsEndpoints.js';
import { databaseCheck, temporalCheck } from './ops/probes.js';
import { activeTracing } from './tracing/activeTracing.js';
import { tracingClientInterceptors, workerTracing } from './tracing/temporalTracing.js';
import { createWorker, workflowCode } from './worker.js';
import { followCredentials } from './workerCredentials.js';
import { workerDeploymentOf } from './workerVersioning.js';

// The one place that builds the service's dependencies; the entrypoints (api, worker, dev) call it.

/** The session settings of a process's connections: its name in pg_stat_activity and the configured timeouts. */
export function sessionOptionsOf(config: Config, processName: string, logger?: Logger): SessionOptions {
  const { statementTimeoutMs, lockTimeoutMs, idleInTransactionTimeoutMs } = config.database;
  return {
    applicationName: `community-bot-${processName}`,
    statementTimeoutMs,
    lockTimeoutMs,
    idleInTransactionTimeoutMs,
    onConnectionError: logger && ((err) => logger.warn({ err }, 'PostgreSQL connection lost; the pool opens another when needed')),
  };
}

/**
 * The pool of a production process (api, worker, bot), which has no embedded fallback. Checks at start, without
 * waiting for it, that the deployment's planned connections fit the server (`budgetChecked`).
 */
export function openDatabase(config: Config, logger: Logger, processName: BudgetProcess): DatabaseHandle & { budgetChecked: Promise<boolean | undefined> } {
  if (!config.database.url) throw new Error('DATABASE_URL is not set.');
  const handle = createDatabase(config.database.url, config.database.poolMax, sessionOptionsOf(config, processName, logger));
  const { pool } = handle;
  measureFrom({
    pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: config.database.poolMax }),
    oldestUnrelayedEvent: () => oldestUnstartedEventAt(handle.db),
  });
  return { ...handle, budgetChecked: checkConnectionBudget(handle.db, config, logger) };
}

/**
 * A Temporal client that connects on first use, so the api can start (and answer reads) before Temporal is up.
 * Given `localWorker`, the NativeConnection of a worker polling the task queue in this same thread, it uses that
 * connection and asks for eager starts instead (see eagerStart).
 */
export function createTemporalGateway(config: Config, localWorker?: NativeConnection, credentials?: CredentialSource): TemporalGateway {
  const tracing = tracingClientInterceptors(activeTracing());
  if (localWorker) {
    const client = new Client({ connection: localWorker, namespace: config.temporal.namespace, interceptors: { workflow: [...(tracing?.workflow ?? []), eagerStart] } });
    return { client, taskQueue: config.temporal.taskQueue };
  }
  if (credentials) return rotatingGateway(credentials, { namespace: config.temporal.namespace, interceptors: tracing }, config.temporal.taskQueue);
  const client = new Client({ connection: Connection.lazy(temporalConnectionOptions(config.temporal)), namespace: config.temporal.namespace, interceptors: tracing });
  return { client, taskQueue: config.temporal.taskQueue };
}

/**
 * Every start asks the server to hand the run's first workflow task back in the start's answer, to the worker on the
 * client's connection, rather than through the matching service to a poller: one round trip less per run (an XP
 * change, whose run is that one task). The server falls back to an ordinary start when that worker has no free slot.
 */
const eagerStart: WorkflowClientInterceptor = {
  startWithDetails: (input, next) => next({ ...input, options: { ...input.options, requestEagerStart: true } }),
};

export function buildApiDeps(config: Config, db: Kysely<Database>, temporal: TemporalGateway, logger: Logger): AppDeps {
  const platform = createPlatform(config, db, logger, { metrics: platformMetrics });
  return {
    credentials: startCredentialCache(config, logger),
    config,
    db,
    platform,
    memberCache: createMemberCache(platform, systemClock, config.limits.memberCacheSeconds),
    clock: systemClock,
    logger,
    temporal,
    keyHits: new KeyHitCounter(db, config.limits.rateLimitFlushMs),
  };
}

/** The api's credential cache, listening for key and guild changes; none when CREDENTIAL_CACHE_ENTRIES is 0. */
function startCredentialCache(config: Config, logger: Logger): CredentialCache | undefined {
  const { credentialCacheEntries, credentialVersionCheckMs } = config.limits;
  const { directUrl } = config.database;
  if (credentialCacheEntries === 0 || !directUrl) return undefined;
  // LISTEN needs a session of its own: through a transaction pooler no notification would arrive.
  const cache = new CredentialCache({ connectionString: directUrl, applicationName: 'community-bot-api-listen', maxEntries: credentialCacheEntries, versionCheckMs: credentialVersionCheckMs });
  cache.on('lost', (err: unknown) => logger.warn({ err }, 'credential change listener lost; keys are looked up until it is back'));
  cache.start();
  return cache;
}

export interface RunningApi {
  url: string;
  /** The operations port's `http://host:port`: /livez, /readyz, /metrics (API_OPS_PORT). */
  opsOrigin: string;
  /** The public HTTP server (its timeouts are the HTTP_* settings). */
  server: Server;
  close(): Promise<void>;
}

export interface ApiServerOptions {
  /** Waits out the propagation delay after SIGTERM (tests end it themselves); default: a timer. */
  wait?: (ms: number) => Promise<void>;
}

/**
 * The api's two HTTP servers: the public one (PORT: the API, the console, flow webhooks) and the operations port
 * (API_OPS_PORT: /livez, /readyz, /metrics, for the orchestrator and the scraper only; also on PORT with
 * API_OPS_ON_PUBLIC_PORT). Its stop: not ready at once, still serving for SHUTDOWN_PROPAGATION_MS (the load balancer
 * catching up), then no new connections and up to SHUTDOWN_DRAIN_MS for the requests in flight; the operations port
 * closes last, so probes see `draining` throughout.
 */
export async function startApiServer(deps: AppDeps, options: ApiServerOptions = {}): Promise<RunningApi> {
  const { host, port } = deps.config.http;
  const { drainMs, propagationMs, keepAliveTimeoutMs, headersTimeoutMs, apiOpsPort, apiOpsOnPublicPort, traceTrustIncoming } = deps.config.ops;
  const ops = opsEndpoints({
    dependencies: { database: databaseCheck(deps.db), temporal: temporalCheck(deps.temporal) },
    metrics: scrape,
    // The fleet's stop on Discord requests is shown, not made a failed check: the api still answers (503 with Retry-After).
    details: async () => (deps.config.platform.kind === 'discord' ? { discord: processDiscordLatch(deps.logger).state() } : {}),
  });
  const koa = createApp(deps, collectRoutes(AREAS, deps)).callback();
  const publicOps = apiOpsOnPublicPort ? ops : undefined;
  const opsServer = await startGracefulServer({ host, port: apiOpsPort, drainMs: 0, ops });
  const server = await startGracefulServer({ host, port, drainMs, propagationMs, keepAliveTimeoutMs, headersTimeoutMs, ops: publicOps, handler: koa, wait: options.wait, dropTraceContext: !traceTrustIncoming }).catch(
    async (err: unknown) => {
      await opsServer.close();
      throw err;
    },
  );
  return {
    url: `${server.origin}/api/v1`,
    opsOrigin: opsServer.origin,
    server: server.server,
    async close() {
      ops.startDraining();
      if (propagationMs > 0) deps.logger.info({ propagationMs, drainMs }, 'draining: not ready, still serving until the load balancer has caught up');
      await server.close();
      await opsServer.close();
      await Promise.all([deps.keyHits.flush(), deps.credentials?.close()]);
    },
  };
}

/** What a worker of the service takes from the configuration, whichever process runs it (worker, or api: apiWorker.ts). */
export function serviceWorkerOptions(config: Config, db: Kysely<Database>, temporal: TemporalGateway, logger: Logger) {
  return {
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    deps: { db, platform: createPlatform(config, db, logger, { callSignal: activityCancellation, metrics: platformMetrics }), clock: systemClock, logger, temporal, webhooks: config.webhooks },
    maxCachedWorkflows: config.temporal.maxCachedWorkflows,
    maxConcurrentActivities: config.temporal.maxConcurrentActivities,
    shutdownGraceMs: config.ops.workerShutdownGraceMs,
    shutdownForceMs: config.ops.workerShutdownForceMs,
  };
}

export interface RunningWorker {
  /** The worker's own HTTP server (/livez, /readyz), `http://host:port`. */
  opsOrigin: string;
  stop(): Promise<void>;
}

/**
 * The worker process's work: the Temporal worker (workflows bundled once), the start relay for work
 * whose workflow start was lost, and the service's schedules.
 */
export async function startWorker(config: Config, db: Kysely<Database>, temporal: TemporalGateway, logger: Logger, credentials?: CredentialSource): Promise<RunningWorker> {
  const connection = credentials ? await NativeConnection.connect(credentials.options()) : await connectWorkerConnection(config.temporal);
  const tracing = activeTracing();
  const tracingOptions = tracing ? workerTracing(tracing) : undefined;
  const bundle = await workflowCode(config.temporal.workflowBundlePath, tracingOptions);
  const deployment = await workerDeploymentOf(config.temporal, bundle);
  if (deployment) logger.info({ deploymentName: deployment.name, buildId: deployment.buildId }, 'versioned worker: polls for its deployment version');
  const worker = await createWorker({ ...serviceWorkerOptions(config, db, temporal, logger), connection, bundle, deployment, tracing: tracingOptions });
  if (credentials) followCredentials(worker, credentials);
  await ensureSchedules(temporal, collectSchedules(AREAS), logger, collectRetiredSchedules(AREAS));
  const running = worker.run();
  for (const step of collectWorkerStartSteps(AREAS)) await step(temporal);
  const ops = opsEndpoints({
    checks: { worker: async () => worker.getState() === 'RUNNING' },
    dependencies: { database: databaseCheck(db), temporal: temporalCheck(temporal) },
    metrics: scrape,
    // Discord's stop after a ban-like 429 is shown beside the checks (activities fail fast and back off meanwhile).
    details: async () => (config.platform.kind === 'discord' ? { discord: processDiscordLatch(logger).state() } : {}),
  });
  const server = await startGracefulServer({ host: config.http.host, port: config.ops.workerPort, drainMs: 0, ops });
  const relayStop = new AbortController();
  const relayDeps = { db, temporal, clock: systemClock };
  const passes = collectRelays(AREAS).map((pass) => () => pass(relayDeps));
  const relay = runStartRelay(passes, logger, relayStop.signal);
  return {
    opsOrigin: server.origin,
    async stop() {
      ops.startDraining();
      relayStop.abort();
      // The SDK's runtime also reacts to SIGINT/SIGTERM and may already be draining the worker.
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await Promise.all([running, relay]);
      // The worker's connection now: new TLS files may have replaced the one it started with.
      await Promise.all([(worker.connection ?? connection).close(), server.close()]);
    },
  };
}
