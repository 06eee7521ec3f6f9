import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import type { Kysely } from 'kysely';
import { createApp } from '../../api/app.js';
import type { AppDeps } from '../../api/context.js';
import { KeyHitCounter } from '../../api/keyHitCounter.js';
import { createDatabase, type DatabaseHandle } from '../../db/pool.js';
import type { Database } from '../../db/schema.js';
import { systemClock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';

import { createMemberCache } from '../core/memberCache.js';
import { connectWorkerConnection, temporalConnectionOptions } from '../core/temporal/connection.js';
import type { TemporalGateway } from '../core/temporal/gateway.js';
import { ensureSchedules } from '../core/temporal/schedules.js';
import { runStartRelay } from '../core/temporal/startRelay.js';
import { AREAS } from './areas.js';
import { activityCancellation, createPlatform } from './platform.js';
import { collectRelays, collectRoutes, collectSchedules } from './registry.js';
import { bundleWorkflows, createWorker } from './worker.js';

// The one place that builds the service's dependencies; the entrypoints (api, worker, dev) call it.

/** The pool of a production process (api, worker), which has no embedded fallback. */
export function openDatabase(config: Config): DatabaseHandle {
  if (!config.database.url) throw new Error('DATABASE_URL is not set.');
  return createDatabase(config.database.url, config.database.poolMax);
}

/** A Temporal client that connects on first use, so the api can start (and answer reads) before Temporal is up. */
export function createTemporalGateway(config: Config): TemporalGateway {
  const connection = Connection.lazy(temporalConnectionOptions(config.temporal));
  return { client: new Client({ connection, namespace: config.temporal.namespace }), taskQueue: config.temporal.taskQueue };
}

export function buildApiDeps(config: Config, db: Kysely<Database>, temporal: TemporalGateway, logger: Logger): AppDeps {
  const platform = createPlatform(config, db, logger);
  return {
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

export interface RunningApi {
  url: string;
  close(): Promise<void>;
}

export async function startApiServer(deps: AppDeps): Promise<RunningApi> {
  const { host, port } = deps.config.http;
  const server: Server = createServer(createApp(deps, collectRoutes(AREAS, deps)).callback());
  // Bodies are small and requests short; a stalled client must not hold a socket for long.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}/api/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }).then(() => deps.keyHits.flush()),
  };
}

export interface RunningWorker {
  stop(): Promise<void>;
}

/**
 * The worker process's work: the Temporal worker (workflows bundled once), the start relay for work
 * whose workflow start was lost, and the service's schedules.
 */
export async function startWorker(config: Config, db: Kysely<Database>, temporal: TemporalGateway, logger: Logger): Promise<RunningWorker> {
  const connection = await connectWorkerConnection(config.temporal);
  const worker = await createWorker({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    bundle: await bundleWorkflows(),
    deps: { db, platform: createPlatform(config, db, logger, activityCancellation), clock: systemClock, logger, temporal, webhooks: config.webhooks },
    maxCachedWorkflows: config.temporal.maxCachedWorkflows,
  });
  await ensureSchedules(temporal, collectSchedules(AREAS));
  const running = worker.run();
  const relayStop = new AbortController();
  const relayDeps = { db, temporal, clock: systemClock };
  const passes = collectRelays(AREAS).map((pass) => () => pass(relayDeps));
  const relay = runStartRelay(passes, logger, relayStop.signal);
  return {
    async stop() {
      relayStop.abort();
      // The SDK's runtime also reacts to SIGINT/SIGTERM and may already be draining the worker.
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await Promise.all([running, relay]);
      await connection.close();
    },
  };
}
