import type { Migration } from 'kysely';
import * as foundation from './2026-11-22-001-foundation.js';

/** Every migration in order; the name is the file name, so the order is the sort order. */
export const migrations: Record<string, Migration> = {
  '2026-11-22-001-foundation': foundation,
};
