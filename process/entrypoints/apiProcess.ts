import { systemClock } from '../../src/core/clock.js';
import { activeTracing } from '../tracing/activeTracing.js';
import { createLogger } from '../../src/core/logger.js';
import { STOP_RESERVE_MS } from '../../src/core/settings/opsSettings.js';
import { buildApiDeps, createTemporalGateway, openDatabase, startApiServer } from '../wiring.js';
import { shareProcessLatch } from '../latchSharing.js';
import { loadConfigOrExit } from './bootConfig.js';
import { runUntilSignal } from './shutdown.js';

const config = loadConfigOrExit();
const logger = createLogger(config.logLevel, 'api');
runUntilSignal(async (defer) => {
  // Registered first, so it runs last: the spans of the whole stop are flushed.
  const tracing = activeTracing();
  if (tracing) defer(tracing.shutdown);
  const database = openDatabase(config, logger, 'api');
  defer(database.close);
  // A ban-like 429 met by any process stops this one's Discord requests too, and one met here stops the fleet's.
  defer(shareProcessLatch(config, database.db, systemClock, logger, 'api').close);
  const temporal = createTemporalGateway(config);
  defer(() => temporal.client.connection.close());
  const api = await startApiServer(buildApiDeps(config, database.db, temporal, logger));
  // Not ready at once, serving on through the propagation delay, then the drain: longer than an ordinary step.
  defer(api.close, config.ops.propagationMs + config.ops.drainMs + STOP_RESERVE_MS);
  logger.info({ url: api.url }, 'api listening');
}, (line) => logger.info(line), { deadlineMs: config.ops.shutdownDeadlineMs });
