import { systemClock } from '../../src/core/clock.js';
import { activeTracing } from '../tracing/activeTracing.js';
import { createLogger } from '../../src/core/logger.js';
import { installTemporalMetrics } from '../ops/temporalMetrics.js';
import { createTemporalGateway, openDatabase, startWorker } from '../wiring.js';
import { shareProcessLatch } from '../latchSharing.js';
import { loadConfigOrExit } from './bootConfig.js';
import { runUntilSignal } from './shutdown.js';

const config = loadConfigOrExit();
const logger = createLogger(config.logLevel, 'worker');
if (config.ops.temporalMetricsPort !== undefined) installTemporalMetrics(config.http.host, config.ops.temporalMetricsPort);
runUntilSignal(async (defer) => {
  // Registered first, so it runs last: the spans of the whole stop are flushed.
  const tracing = activeTracing();
  if (tracing) defer(tracing.shutdown);
  const database = openDatabase(config, logger, 'worker');
  defer(database.close);
  // A ban-like 429 met by any process stops this one's Discord requests too, and one met here stops the fleet's.
  defer(shareProcessLatch(config, database.db, systemClock, logger, 'worker').close);
  const temporal = createTemporalGateway(config);
  defer(() => temporal.client.connection.close());
  const worker = await startWorker(config, database.db, temporal, logger);
  defer(worker.stop);
  logger.info({ taskQueue: config.temporal.taskQueue, namespace: config.temporal.namespace }, 'worker polling');
}, (line) => logger.info(line), { deadlineMs: config.ops.shutdownDeadlineMs });
