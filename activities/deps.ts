import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Clock } from '../src/core/clock.js';
import type { Logger } from '../src/core/logger.js';
import type { Platform } from '../src/core/platform.js';
import type { TemporalGateway } from '../src/core/temporal/gateway.js';

/** What activities may touch; the worker entrypoint (or a test) builds it. */
export interface ActivityDeps {
  db: Kysely<Database>;
  platform: Platform;
  clock: Clock;
  logger: Logger;
  /** For starting event fan-outs right after an activity's commit (the outbox relay is the fallback). */
  temporal: TemporalGateway;
  /** Operator setting: webhook deliveries may reach http:// and loopback endpoints (development, tests). */
  webhooks: { allowInsecureLocal: boolean };
}
