import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Config } from '../src/core/config.js';
import type { Logger } from '../src/core/logger.js';
import { connectWorkerConnection } from '../src/core/temporal/connection.js';
import type { TemporalGateway } from '../src/core/temporal/gateway.js';
import { activeTracing } from './tracing/activeTracing.js';
import { workerTracing } from './tracing/temporalTracing.js';
import { createWorker, workflowCode } from './worker.js';
import { createTemporalGateway, serviceWorkerOptions } from './wiring.js';

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
  const bundle = await workflowCode(config.temporal.workflowBundlePath, tracingOptions);
  const worker = await createWorker({ ...serviceWorkerOptions(config, db, temporal, logger), connection, bundle, tracing: tracingOptions });
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
