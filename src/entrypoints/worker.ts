import { createDatabase } from '../../db/pool.js';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { createTemporalGateway, startWorker } from '../wiring.js';
import { stopOnSignal } from './shutdown.js';

const config = loadConfig();
const logger = createLogger(config.logLevel, 'worker');
if (!config.database.url) throw new Error('DATABASE_URL is not set.');
const database = createDatabase(config.database.url, config.database.poolMax);
const temporal = createTemporalGateway(config);
const worker = await startWorker(config, database.db, temporal, logger);
logger.info({ taskQueue: config.temporal.taskQueue, namespace: config.temporal.namespace }, 'worker polling');
stopOnSignal([worker.stop, () => temporal.client.connection.close(), database.close], (line) => logger.info(line));
