import { createLogger } from '../../src/core/logger.js';
import { STOP_RESERVE_MS } from '../../src/core/settings/opsSettings.js';
import { startApiWorker } from '../apiWorker.js';
import { buildApiDeps, startApiServer } from '../wiring.js';
import { loadConfigOrExit } from './bootConfig.js';
import { openProcessDeps } from './processDeps.js';
import { runUntilSignal } from './shutdown.js';

const config = loadConfigOrExit();
const logger = createLogger(config.logLevel, 'api');
runUntilSignal(async (defer) => {
  const deps = openProcessDeps(config, logger, 'api', defer);
  const { db } = deps;
  // Registered before the server's stop, so it runs after it: the worker serves the requests drained.
  const apiWorker = config.temporal.apiEagerWorker ? await startApiWorker(config, db, logger) : undefined;
  if (apiWorker) defer(apiWorker.stop);
  const temporal = apiWorker?.temporal ?? deps.temporal;
  const api = await startApiServer(buildApiDeps(config, db, temporal, logger));
  // Not ready at once, serving on through the propagation delay, then the drain: longer than an ordinary step.
  defer(api.close, config.ops.propagationMs + config.ops.drainMs + STOP_RESERVE_MS);
  logger.info({ url: api.url }, 'api listening');
}, (line) => logger.info(line), { deadlineMs: config.ops.shutdownDeadlineMs });
