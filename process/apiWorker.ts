import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { systemClock } from '../src/core/clock.js';
import type { Config } from '../src/core/config.js';
import type { Logger } from '../src/core/logger.js';
import { platformMetrics } from '../src/core/metrics.js';
import { connectWorkerConnection } from '../src/core/temporal/connection.js';
import type { TemporalGateway } from '../src/core/temporal/gateway.js';
import { activityCancellation, createPlatform } from './platform.js';
import { activeTracing } from './tracing/activeTracing.js';
import { workerTracing } from './tracing/temporalTracing.js';
import { createWorker, workflowCode } from './worker.js';
import { createTemporalGateway } from './wiring.js';

export interface ApiWorker {
  /** The api's client, on the worker's connection: its starts are eager (createTemporalGateway). */
  temporal: TemporalGateway;
  stop(): Promise<void>;
}

/**
 * API_EAGER_WORKER: a worker in the api process on TEMPORAL_TASK_QUEUE, whose connection the api's client shares,
 * so an XP change's run (one workflow task) starts in the start's answer instead of through a poll. It is a bare
 * worker: the schedules, the start relay and the worker's own probes stay with the worker processes.
 */
export async function startApiWorker(config: Config, db: Kysely<Database>, logger: Logger): Promise<ApiWorker> {
  const connection = await connectWorkerConnection(config.temporal);
  const temporal = createTemporalGateway(config, connection);
  const tracing = activeTracing();
  const tracingOptions = tracing ? workerTracing(tracing) : undefined;
  const worker = await createWorker({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    bundle: await workflowCode(config.temporal.workflowBundlePath, tracingOptions),
    tracing: tracingOptions,
    deps: { db, platform: createPlatform(config, db, logger, { callSignal: activityCancellation, metrics: platformMetrics }), clock: systemClock, logger, temporal, webhooks: config.webhooks },
    maxCachedWorkflows: config.temporal.maxCachedWorkflows,
    maxConcurrentActivities: config.temporal.maxConcurrentActivities,
    shutdownGraceMs: config.ops.workerShutdownGraceMs,
    shutdownForceMs: config.ops.workerShutdownForceMs,
  });
  const running = worker.run();
  logger.info({ taskQueue: config.temporal.taskQueue }, 'api worker polling: workflow starts are eager');
  return {
    temporal,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await connection.close();
    },
  };
}
