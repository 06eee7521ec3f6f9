import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** A shard's gateway session as the bot left it: resumable from `seq`, every dispatch up to it handled. */
export interface GatewaySessionRecord {
  shardId: number;
  shardCount: number;
  sessionId: string;
  resumeUrl: string;
  seq: number;
}

export async function listGatewaySessions(db: Kysely<Database>): Promise<GatewaySessionRecord[]> {
  const rows = await db.selectFrom('bot_gateway_sessions').select(['shard_id', 'shard_count', 'session_id', 'resume_url', 'seq']).orderBy('shard_id').execute();
  return rows.map((r) => ({ shardId: r.shard_id, shardCount: r.shard_count, sessionId: r.session_id, resumeUrl: r.resume_url, seq: Number(r.seq) }));
}

/** Records a shard's handled position; a position of another session replaces the shard's row. */
export async function saveGatewaySession(db: Kysely<Database>, s: GatewaySessionRecord): Promise<void> {
  await db
    .insertInto('bot_gateway_sessions')
    .values({ shard_id: s.shardId, shard_count: s.shardCount, session_id: s.sessionId, resume_url: s.resumeUrl, seq: s.seq })
    .onConflict((oc) =>
      oc.column('shard_id').doUpdateSet({ shard_count: s.shardCount, session_id: s.sessionId, resume_url: s.resumeUrl, seq: s.seq, updated_at: sql`now()` }),
    )
    .execute();
}

/** Forgets every shard's session (tests that stand for a fresh Discord). */
export async function clearGatewaySessions(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('bot_gateway_sessions').execute();
}
