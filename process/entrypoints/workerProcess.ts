import { createLogger } from '../../src/core/logger.js';
import { installTemporalMetrics } from '../ops/temporalMetrics.js';
import { startWorker } from '../wiring.js';
import { loadConfigOrExit } from './bootConfig.js';
import { openProcessDeps } from './processDeps.js';
import { runUntilSignal } from './shutdown.js';

const config = loadConfigOrExit();
const logger = createLogger(config.logLevel, 'worker');
if (config.ops.temporalMetricsPort !== undefined) installTemporalMetrics(config.http.host, config.ops.temporalMetricsPort);
runUntilSignal(async (defer) => {
  const { db, temporal, credentials } = openProcessDeps(config, logger, 'worker', defer);
  const worker = await startWorker(config, db, temporal, logger, credentials);
  defer(worker.stop);
  logger.info({ taskQueue: config.temporal.taskQueue, namespace: config.temporal.namespace }, 'worker polling');
}, (line) => logger.info(line), { deadlineMs: config.ops.shutdownDeadlineMs });
