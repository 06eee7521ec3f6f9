import type { AuditEntry } from '../../db/shared/audit.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { listManagedServers, type ServerAccessDeps } from './serverAccess.js';
import { endOtherSessions, endSession, startSession, type ConsoleUser, type SessionPolicy } from './sessions.js';

export type SignInMethod = 'discord' | 'local';

export interface SignInDeps extends ServerAccessDeps {
  clock: Clock;
  policy: SessionPolicy;
  logger: Logger;
}

/**
 * Starts the session of a user who proved who they are, and records it where an owner investigating a key looks:
 * a `console.signIn` audit row, with the client address, in each server the user manages at this moment (the rule
 * every page applies), written in the session's transaction; and an info log line. Returns the session token.
 */
export async function signInUser(deps: SignInDeps, user: ConsoleUser, how: { method: SignInMethod; clientAddress: string; previousToken?: string }): Promise<string> {
  const servers = await listManagedServers(deps, user);
  const audit: AuditEntry[] = servers.map((guild) => ({
    guildId: guild.id,
    actor: { type: 'console_user', userId: user.userId },
    action: 'console.signIn',
    data: { address: how.clientAddress, method: how.method },
  }));
  const token = await startSession(deps, user, how.previousToken, audit);
  deps.logger.info({ userId: user.userId, clientAddress: how.clientAddress, method: how.method, servers: servers.map((g) => g.id) }, 'console sign-in');
  return token;
}

/** Ends the session the user signs out of (the row deleted, so the cookie is worthless even if kept). */
export async function signOut(deps: { db: SignInDeps['db']; logger: Logger }, session: { token: string; userId: string }, clientAddress: string): Promise<void> {
  await endSession(deps.db, session.token);
  deps.logger.info({ userId: session.userId, clientAddress }, 'console sign-out');
}

/** "Sign out other sessions": ends the user's sessions in every other browser, keeps this one. Returns how many ended. */
export async function signOutOtherSessions(deps: { db: SignInDeps['db']; logger: Logger }, session: { token: string; userId: string }, clientAddress: string): Promise<number> {
  const ended = await endOtherSessions(deps.db, session.userId, session.token);
  deps.logger.info({ userId: session.userId, clientAddress, ended }, 'console sign-out of other sessions');
  return ended;
}

