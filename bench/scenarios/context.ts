import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { TemporalGateway } from '../../src/core/temporal/gateway.js';

export interface ScenarioContext {
  db: Kysely<Database>;
  /** Base URLs of the api (routes under /api/v1) and of the bare app (routes under /bare). */
  fullUrl: string;
  bareUrl: string;
  apiKey: string;
  members: number;
  connections: number;
  durationSeconds: number;
  /** Giveaways opened at once by `giveaways-open` (`--giveaways`). */
  giveaways: number;
  /** Temporal workers polling the task queue (`--workers`). */
  workers: number;
  /** Temporal as the api sees it (for scenarios that start workflows themselves). */
  temporal: TemporalGateway;
  /** Where a scenario's own worker connects. */
  temporalAddress: string;
}
