import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { listenForNotifications } from '../shared/notificationListener.js';

/** The channel a block is announced on (migration 2026-11-29-030). */
const CHANNEL = 'platform_blocks';

export interface PlatformBlock {
  until: Date;
  reason: 'global' | 'cloudflare' | 'long-retry-after';
  setBy: string;
}

interface Announced {
  until: string;
  reason: PlatformBlock['reason'];
  set_by: string;
}

const fromAnnounced = (a: Announced): PlatformBlock => ({ until: new Date(a.until), reason: a.reason, setBy: a.set_by });

/**
 * Writes the block unless a longer one is already recorded, and announces what was written in the same statement
 * (the notification goes out when it commits). Answers whether it was written.
 */
export async function recordPlatformBlock(db: Kysely<Database>, block: PlatformBlock): Promise<boolean> {
  const { rows } = await sql<{ written: boolean }>`
    WITH written AS (
      INSERT INTO platform_blocks (platform, blocked_until, reason, set_by, set_at)
      VALUES ('discord', ${block.until}, ${block.reason}, ${block.setBy}, now())
      ON CONFLICT (platform) DO UPDATE
        SET blocked_until = excluded.blocked_until, reason = excluded.reason, set_by = excluded.set_by, set_at = excluded.set_at
        WHERE platform_blocks.blocked_until < excluded.blocked_until
      RETURNING blocked_until, reason, set_by
    )
    SELECT pg_notify(${CHANNEL}, json_build_object('until', blocked_until, 'reason', reason, 'set_by', set_by)::text) IS NOT NULL AS written
    FROM written`.execute(db);
  return rows.length > 0;
}

/** The recorded stop on calls to Discord, if it lasts past `now` (what every process of the service obeys). */
export async function findPlatformBlock(db: Kysely<Database>, now: Date): Promise<PlatformBlock | undefined> {
  const row = await db
    .selectFrom('platform_blocks')
    .select(['blocked_until', 'reason', 'set_by'])
    .where('platform', '=', 'discord')
    .where('blocked_until', '>', now)
    .executeTakeFirst();
  return row && { until: row.blocked_until, reason: row.reason as PlatformBlock['reason'], setBy: row.set_by };
}

export interface PlatformBlockListener {
  close(): Promise<void>;
}

/**
 * Every block announced, heard on a dedicated connection (db/shared/notificationListener.ts). After LISTEN, and after
 * each reconnection, the recorded block is read and handed over too: one announced while the connection was down is
 * not missed. Reconnects `retryMs` apart.
 */
export function listenForPlatformBlocks(
  connectionString: string,
  handlers: { block(block: PlatformBlock): void; lost(err: unknown): void },
  options: { retryMs?: number; applicationName?: string } = {},
): PlatformBlockListener {
  const listener = listenForNotifications(
    connectionString,
    CHANNEL,
    'platform block listener',
    {
      notified: (payload) => handlers.block(fromAnnounced(JSON.parse(payload) as Announced)),
      catchUp: async (client) => {
        const { rows } = await client.query<Announced>("select blocked_until as until, reason, set_by from platform_blocks where platform = 'discord'");
        return rows[0];
      },
      listening: (recorded) => {
        if (recorded) handlers.block(fromAnnounced(recorded));
      },
      lost: (err) => handlers.lost(err),
    },
    options,
  );
  return { close: () => listener.close() };
}
