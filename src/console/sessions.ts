import type { Kysely } from 'kysely';
import { countOtherLiveSessions, deleteAllSessions, deleteSession, deleteUserSessions, findSession, insertSession, touchSession, type ConsoleSessionRecord } from '../../db/console/sessions.js';
import type { Database } from '../../db/schema.js';
import { writeAudits, type AuditEntry } from '../../db/shared/audit.js';
import type { Clock } from '../core/clock.js';
import { hashToken, newToken } from './tokens.js';

export interface SessionPolicy {
  idleMinutes: number;
  absoluteHours: number;
}

export interface ConsoleUser {
  userId: string;
  userName: string;
  guildIds: string[] | null;
}

export interface ConsoleSession extends ConsoleSessionRecord {
  token: string;
}

interface Deps {
  db: Kysely<Database>;
  clock: Clock;
  policy: SessionPolicy;
}

// Writing last_seen_at on every page would put a write on every read; a minute is well inside the idle limit.
const TOUCH_EVERY_MS = 60_000;

/**
 * Starts a session for a user who just signed in, and ends the one the browser held before (a session id is
 * never carried across a sign-in, so one planted before it is worthless after), with the sign-in's audit rows.
 * Returns the new cookie token.
 */
export async function startSession(deps: Deps, user: ConsoleUser, previousToken: string | undefined, audit: AuditEntry[]): Promise<string> {
  const token = newToken();
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    if (previousToken) await deleteSession(trx, hashToken(previousToken));
    await insertSession(trx, hashToken(token), {
      ...user,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + deps.policy.absoluteHours * 3_600_000),
    });
    await writeAudits(trx, audit);
  });
  return token;
}

/** The live session of a cookie token, or undefined (unknown, idle too long, past its absolute expiry). */
export async function resumeSession(deps: Deps, token: string): Promise<ConsoleSession | undefined> {
  const hash = hashToken(token);
  const session = await findSession(deps.db, hash);
  if (!session) return undefined;
  const now = deps.clock.now().getTime();
  const idleUntil = session.lastSeenAt.getTime() + deps.policy.idleMinutes * 60_000;
  if (now >= session.expiresAt.getTime() || now >= idleUntil) {
    await deleteSession(deps.db, hash);
    return undefined;
  }
  if (now - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) await touchSession(deps.db, hash, new Date(now));
  return { ...session, token };
}

export async function endSession(db: Kysely<Database>, token: string): Promise<void> {
  await deleteSession(db, hashToken(token));
}

/**
 * Ends sessions at an operator's word (a stolen laptop, a departed manager; ASVS 7.4.5): every session of one user,
 * or of everyone. The rows are deleted, so each cookie is refused from its next request on. Returns how many ended.
 */
export function endSessions(db: Kysely<Database>, whose: { userId: string } | 'all'): Promise<number> {
  return whose === 'all' ? deleteAllSessions(db) : deleteUserSessions(db, whose.userId);
}

/** Ends the user's sessions in other browsers, keeping the one of `token`. Returns how many ended. */
export function endOtherSessions(db: Kysely<Database>, userId: string, token: string): Promise<number> {
  return deleteUserSessions(db, userId, hashToken(token));
}

/** How many of the user's sessions, besides the one of `token`, are still live (other browsers signed in). */
export function countOtherSessions(deps: Deps, session: { userId: string; token: string }): Promise<number> {
  const now = deps.clock.now();
  return countOtherLiveSessions(deps.db, session.userId, hashToken(session.token), { now, idleSince: new Date(now.getTime() - deps.policy.idleMinutes * 60_000) });
}

