import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface ConsoleSessionRecord {
  userId: string;
  userName: string;
  /** The servers Discord listed as manageable at sign-in; null for the local platform's sign-in. */
  guildIds: string[] | null;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

export async function insertSession(db: Kysely<Database>, tokenHash: Buffer, s: ConsoleSessionRecord): Promise<void> {
  await db
    .insertInto('console_sessions')
    .values({
      token_hash: tokenHash,
      user_id: s.userId,
      user_name: s.userName,
      guild_ids: s.guildIds,
      created_at: s.createdAt,
      last_seen_at: s.lastSeenAt,
      expires_at: s.expiresAt,
    })
    .execute();
}

export async function findSession(db: Kysely<Database>, tokenHash: Buffer): Promise<ConsoleSessionRecord | undefined> {
  const row = await db.selectFrom('console_sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  return (
    row && {
      userId: row.user_id,
      userName: row.user_name,
      guildIds: row.guild_ids,
      createdAt: row.created_at,
      lastSeenAt: row.last_seen_at,
      expiresAt: row.expires_at,
    }
  );
}

export async function touchSession(db: Kysely<Database>, tokenHash: Buffer, at: Date): Promise<void> {
  await db.updateTable('console_sessions').set({ last_seen_at: at }).where('token_hash', '=', tokenHash).execute();
}

export async function deleteSession(db: Kysely<Database>, tokenHash: Buffer): Promise<void> {
  await db.deleteFrom('console_sessions').where('token_hash', '=', tokenHash).execute();
}

/** Deletes the user's sessions (all, or all but `keep`); returns how many ended. */
export async function deleteUserSessions(db: Kysely<Database>, userId: string, keep?: Buffer): Promise<number> {
  let query = db.deleteFrom('console_sessions').where('user_id', '=', userId);
  if (keep) query = query.where('token_hash', '!=', keep);
  return Number((await query.executeTakeFirst()).numDeletedRows);
}

/** The user's sessions still live at `now` (not past their absolute expiry, seen since `idleSince`), but `other`. */
export async function countOtherLiveSessions(db: Kysely<Database>, userId: string, other: Buffer, live: { now: Date; idleSince: Date }): Promise<number> {
  const row = await db
    .selectFrom('console_sessions')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('token_hash', '!=', other)
    .where('expires_at', '>', live.now)
    .where('last_seen_at', '>', live.idleSince)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deletes every session of every user; returns how many ended. */
export async function deleteAllSessions(db: Kysely<Database>): Promise<number> {
  return Number((await db.deleteFrom('console_sessions').executeTakeFirst()).numDeletedRows);
}

export interface PendingSignIn {
  codeVerifier: string;
  /** SHA-256 of the nonce in the sign-in cookie of the browser that began it (null: begun before the binding existed). */
  browserHash: Buffer | null;
  createdAt: Date;
}

export async function insertPendingSignIn(db: Kysely<Database>, stateHash: Buffer, s: PendingSignIn): Promise<void> {
  await db
    .insertInto('console_sign_ins')
    .values({ state_hash: stateHash, code_verifier: s.codeVerifier, browser_hash: s.browserHash, created_at: s.createdAt })
    .execute();
}

export async function findPendingSignIn(db: Kysely<Database>, stateHash: Buffer): Promise<PendingSignIn | undefined> {
  const row = await db.selectFrom('console_sign_ins').select(['code_verifier', 'browser_hash', 'created_at']).where('state_hash', '=', stateHash).executeTakeFirst();
  return row && { codeVerifier: row.code_verifier, browserHash: row.browser_hash, createdAt: row.created_at };
}

/** Takes a pending sign-in once: false when it is gone (a replayed callback, or a concurrent one took it first). */
export async function takePendingSignIn(db: Kysely<Database>, stateHash: Buffer): Promise<boolean> {
  const taken = await db.deleteFrom('console_sign_ins').where('state_hash', '=', stateHash).executeTakeFirst();
  return taken.numDeletedRows > 0n;
}

/** How long an abandoned sign-in is kept. */
export const SIGN_IN_KEPT_MS = 3_600_000;

/** Sessions past their absolute expiry (an idle one ends there at the latest) and sign-ins abandoned an hour ago. */
export async function purgeEndedSessions(db: Kysely<Database>, now: Date): Promise<number> {
  const sessions = await db.deleteFrom('console_sessions').where('expires_at', '<=', now).executeTakeFirst();
  await db.deleteFrom('console_sign_ins').where('created_at', '<=', new Date(now.getTime() - SIGN_IN_KEPT_MS)).execute();
  return Number(sessions.numDeletedRows);
}
