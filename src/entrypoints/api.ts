import { createDatabase } from '../../db/pool.js';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { buildApiDeps, createTemporalGateway, startApiServer } from '../wiring.js';
import { stopOnSignal } from './shutdown.js';

const config = loadConfig();
const logger = createLogger(config.logLevel, 'api');
if (!config.database.url) throw new Error('DATABASE_URL is not set.');
const database = createDatabase(config.database.url, config.database.poolMax);
const temporal = createTemporalGateway(config);
const api = await startApiServer(buildApiDeps(config, database.db, temporal, logger));
logger.info({ url: api.url }, 'api listening');
stopOnSignal([api.close, () => temporal.client.connection.close(), database.close], (line) => logger.info(line));
