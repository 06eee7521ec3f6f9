import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Config } from '../../src/core/config.js';
import { systemClock } from '../../src/core/clock.js';
import type { Logger } from '../../src/core/logger.js';
import { watchTemporalCredentials, type CredentialSource } from '../../src/core/temporal/credentialSource.js';
import type { TemporalGateway } from '../../src/core/temporal/gateway.js';
import { shareProcessLatch } from '../latchSharing.js';
import { activeTracing } from '../tracing/activeTracing.js';
import { createTemporalGateway, openDatabase } from '../wiring.js';
import type { Defer } from './shutdown.js';

/**
 * What the api and the worker open before their own part: the pool, the fleet's Discord stop shared through it (a
 * ban-like 429 met by any process stops this one's Discord requests too, and one met here the fleet's) and the
 * Temporal client, each with its stop step registered at once. The tracing flush is registered first, so it runs
 * last: the spans of the whole stop are flushed.
 */
export function openProcessDeps(
  config: Config,
  logger: Logger,
  processName: 'api' | 'worker',
  defer: Defer,
): { db: Kysely<Database>; temporal: TemporalGateway; credentials?: CredentialSource } {
  const tracing = activeTracing();
  if (tracing) defer(tracing.shutdown);
  const database = openDatabase(config, logger, processName);
  defer(database.close);
  defer(shareProcessLatch(config, database.db, systemClock, logger, processName).close);
  // Re-reads the API key file and the TLS files (TEMPORAL_CREDENTIALS_RELOAD_MS), so both rotate without a restart.
  const credentials = config.temporal.address ? watchTemporalCredentials(config.temporal, logger) : undefined;
  if (credentials) defer(async () => credentials.close());
  const temporal = createTemporalGateway(config, undefined, credentials);
  defer(() => temporal.client.connection.close());
  return { db: database.db, temporal, credentials };
}
