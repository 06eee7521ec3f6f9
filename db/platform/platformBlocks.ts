import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.js';

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
 * One dedicated connection (LISTEN needs a session of its own: through a transaction pooler no notification would
 * arrive) that hears every block announced. After LISTEN, and after each reconnection, the recorded block is read and
 * handed over too: one announced while the connection was down is not missed. Reconnects `retryMs` apart.
 */
export function listenForPlatformBlocks(
  connectionString: string,
  handlers: { block(block: PlatformBlock): void; lost(err: unknown): void },
  options: { retryMs?: number; applicationName?: string } = {},
): PlatformBlockListener {
  const { retryMs = 1000, applicationName } = options;
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const lose = (from: pg.Client, err: unknown) => {
    if (client !== from) return;
    client = undefined;
    from.removeAllListeners('notification');
    from.end().catch(() => {});
    handlers.lost(err);
    if (!closed) retry = setTimeout(() => void connect(), retryMs).unref();
  };

  const connect = async () => {
    const next = new pg.Client({ connectionString, keepAlive: true, application_name: applicationName });
    client = next;
    next.on('error', (err) => lose(next, err));
    next.on('end', () => lose(next, new Error('the platform block listener connection ended')));
    next.on('notification', (message) => {
      if (message.channel === CHANNEL && message.payload) handlers.block(fromAnnounced(JSON.parse(message.payload) as Announced));
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      const { rows } = await next.query<Announced>("select blocked_until as until, reason, set_by from platform_blocks where platform = 'discord'");
      if (client === next && !closed && rows[0]) handlers.block({ until: new Date(rows[0].until), reason: rows[0].reason, setBy: rows[0].set_by });
    } catch (err) {
      lose(next, err);
    }
  };
  void connect();

  return {
    close: async () => {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
