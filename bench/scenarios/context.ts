import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface ScenarioContext {
  db: Kysely<Database>;
  /** Base URLs of the api (routes under /api/v1) and of the bare app (routes under /bare). */
  fullUrl: string;
  bareUrl: string;
  apiKey: string;
  members: number;
  connections: number;
  durationSeconds: number;
}
