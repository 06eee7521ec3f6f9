import { sql, type Kysely } from 'kysely';

/**
 * `platform_blocks`: the fleet's stop on Discord requests after a ban-like 429 (a global 429, Cloudflare's 429 without
 * bucket headers, or a retry-after over a minute). One row per platform; the process that met the 429 writes it and
 * announces it on the `platform_blocks` channel, so every other process stops too, and one that starts (or
 * reconnects) during the block reads it here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE platform_blocks (
      platform text PRIMARY KEY CHECK (platform IN ('discord')),
      blocked_until timestamptz NOT NULL,
      reason text NOT NULL CHECK (reason IN ('global', 'cloudflare', 'long-retry-after')),
      set_by text NOT NULL,
      set_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE platform_blocks`.execute(db);
}
