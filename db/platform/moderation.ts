import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * The local platform's moderation effects. Each one changes state only when it is not already in effect
 * and logs only real changes, so a retried activity is a no-op; each returns whether anything changed.
 */
type Db = Kysely<Database>;
type Target = { guildId: string; userId: string; reason: string | null };

export const findPlatformBan = (db: Db, guildId: string, userId: string) =>
  db.selectFrom('platform_bans').select(['reason', 'created_at']).where('guild_id', '=', guildId).where('user_id', '=', userId).executeTakeFirst();

async function logEffect(trx: Db, t: Target, action: 'kick' | 'ban' | 'unban' | 'timeout' | 'untimeout', until: Date | null = null) {
  await trx.insertInto('platform_moderation_log').values({ guild_id: t.guildId, user_id: t.userId, action, reason: t.reason, until }).execute();
}

/** Bans the user (member or not) and removes them from the server, as the platform does. */
export function banPlatformUser(db: Db, t: Target): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('platform_bans')
      .values({ guild_id: t.guildId, user_id: t.userId, reason: t.reason })
      .onConflict((oc) => oc.columns(['guild_id', 'user_id']).doNothing())
      .returning('user_id')
      .executeTakeFirst();
    if (!inserted) return false;
    await trx.deleteFrom('platform_members').where('guild_id', '=', t.guildId).where('user_id', '=', t.userId).execute();
    await logEffect(trx, t, 'ban');
    return true;
  });
}

export function unbanPlatformUser(db: Db, t: Target): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const deleted = await trx.deleteFrom('platform_bans').where('guild_id', '=', t.guildId).where('user_id', '=', t.userId).executeTakeFirst();
    if (deleted.numDeletedRows === 0n) return false;
    await logEffect(trx, t, 'unban');
    return true;
  });
}

export function kickPlatformMember(db: Db, t: Target): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const deleted = await trx.deleteFrom('platform_members').where('guild_id', '=', t.guildId).where('user_id', '=', t.userId).executeTakeFirst();
    if (deleted.numDeletedRows === 0n) return false;
    await logEffect(trx, t, 'kick');
    return true;
  });
}

/** Times the member out until `until`, or lifts a timeout when `until` is null. */
export function setPlatformTimeout(db: Db, t: Target & { until: Date | null }): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable('platform_members')
      .set({ timed_out_until: t.until })
      .where('guild_id', '=', t.guildId)
      .where('user_id', '=', t.userId)
      .where(sql<boolean>`timed_out_until IS DISTINCT FROM ${t.until}`)
      .executeTakeFirst();
    if (changed.numUpdatedRows === 0n) return false;
    await logEffect(trx, t, t.until ? 'timeout' : 'untimeout', t.until);
    return true;
  });
}

export const listPlatformModerationLog = (db: Db, guildId: string, userId: string) =>
  db
    .selectFrom('platform_moderation_log')
    .select(['action', 'reason', 'until'])
    .where('guild_id', '=', guildId)
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();

/**
 * Sends a DM once per idempotency key. A member who closed their DMs does not get it ('failed'); users
 * who are not members (a banned appellant) are reachable, as through a server they share with the bot.
 */
export async function sendPlatformDirectMessage(
  db: Db,
  m: { guildId: string; userId: string; content: string; idempotencyKey: string; buttons?: Array<{ id: string; label: string }> },
): Promise<'sent' | 'failed'> {
  const member = await db
    .selectFrom('platform_members')
    .select('accepts_dms')
    .where('guild_id', '=', m.guildId)
    .where('user_id', '=', m.userId)
    .executeTakeFirst();
  if (member && !member.accepts_dms) return 'failed';
  await db
    .insertInto('platform_direct_messages')
    .values({ guild_id: m.guildId, user_id: m.userId, content: m.content, idempotency_key: m.idempotencyKey, buttons: m.buttons?.length ? JSON.stringify(m.buttons) : null })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .execute();
  return 'sent';
}

export const listPlatformDirectMessages = (db: Db, guildId: string, userId: string) =>
  db
    .selectFrom('platform_direct_messages')
    .select(['content', 'idempotency_key', 'buttons'])
    .where('guild_id', '=', guildId)
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();

/** Creates an invite once per idempotency key and returns its code either way. */
export async function createPlatformInvite(
  db: Db,
  i: { guildId: string; channelId: string; maxUses: number; idempotencyKey: string },
): Promise<string> {
  await db
    .insertInto('platform_invites')
    .values({
      code: randomBytes(6).toString('base64url'),
      guild_id: i.guildId,
      channel_id: i.channelId,
      max_uses: i.maxUses,
      idempotency_key: i.idempotencyKey,
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .execute();
  const row = await db.selectFrom('platform_invites').select('code').where('idempotency_key', '=', i.idempotencyKey).executeTakeFirstOrThrow();
  return row.code;
}

export const listPlatformInvites = (db: Db, guildId: string) =>
  db.selectFrom('platform_invites').select(['code', 'channel_id', 'uses', 'max_uses']).where('guild_id', '=', guildId).orderBy('code').execute();

export async function setPlatformAcceptsDms(db: Db, guildId: string, userId: string, accepts: boolean): Promise<void> {
  await db.updateTable('platform_members').set({ accepts_dms: accepts }).where('guild_id', '=', guildId).where('user_id', '=', userId).execute();
}
