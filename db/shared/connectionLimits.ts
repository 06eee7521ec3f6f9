import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface ConnectionLimits {
  /** The server's max_connections (SHOW max_connections). */
  maxConnections: number;
  /** Slots only superusers (superuser_reserved_connections) and, from PostgreSQL 16, roles granted pg_use_reserved_connections (reserved_connections) may take. */
  reserved: number;
}

export async function readConnectionLimits(db: Kysely<Database>): Promise<ConnectionLimits> {
  const { rows } = await sql<{ max: number; superuser: number; reserved: number }>`
    select current_setting('max_connections')::int as max,
           current_setting('superuser_reserved_connections')::int as superuser,
           coalesce(current_setting('reserved_connections', true), '0')::int as reserved`.execute(db);
  const row = rows[0]!;
  return { maxConnections: row.max, reserved: row.superuser + row.reserved };
}
