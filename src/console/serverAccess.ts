import type { Kysely } from 'kysely';
import { localGuildsOfMember } from '../../db/console/localPeople.js';
import { findGuild, type GuildRecord } from '../../db/guild/guilds.js';
import type { Database } from '../../db/schema.js';
import type { MemberCache } from '../core/memberCache.js';
import type { Clock } from '../core/clock.js';
import type { Platform, ReadOptions } from '../core/platform.js';
import { SNOWFLAKE_PATTERN } from '../core/snowflake.js';
import { ConsoleRefusal } from './errors.js';
import { isServerManager } from './managerRule.js';

export interface ServerAccessDeps {
  db: Kysely<Database>;
  platform: Platform;
  /** Member lookups may be a few minutes old (MEMBER_CACHE_SECONDS, at most 5): "fresh within a few minutes". */
  memberCache: MemberCache;
  clock: Clock;
}

/**
 * Whether the user manages the server now, as the bot sees it (owner, Manage Server or Administrator). `fresh` reads
 * past every cache: a write must not be allowed by a role that was taken away minutes ago.
 */
export async function managesServer(deps: ServerAccessDeps, userId: string, guildId: string, read: ReadOptions = {}): Promise<boolean> {
  const platformGuild = await deps.platform.getGuild(guildId, read);
  if (!platformGuild) return false;
  if (platformGuild.ownerId === userId) return true;
  const member = await deps.memberCache.getMember(guildId, userId, read);
  if (!member) return false;
  const roles = await deps.platform.listRoles(guildId, read);
  return isServerManager({
    guildId,
    ownerId: platformGuild.ownerId,
    userId,
    memberRoleIds: member.roleIds,
    timedOutUntil: member.timedOutUntil,
    roles,
    now: deps.clock.now(),
  });
}

/**
 * The server a console page or action is about, checked on every request: an unknown server and one the user does
 * not manage get the same refusal, so the console does not tell which servers use the service.
 */
export async function requireManagedServer(deps: ServerAccessDeps, userId: string, guildId: string, read: ReadOptions = {}): Promise<GuildRecord> {
  const guild = SNOWFLAKE_PATTERN.test(guildId) ? await findGuild(deps.db, guildId) : undefined;
  if (!guild || !(await managesServer(deps, userId, guildId, read))) {
    throw new ConsoleRefusal('NOT_A_SERVER_MANAGER', 'You do not manage this server (or the bot is not in it).');
  }
  return guild;
}

/**
 * The servers the console lists: the candidates (Discord's list from sign-in, or the local platform's memberships)
 * where the bot is and the user manages the server now.
 */
export async function listManagedServers(deps: ServerAccessDeps, user: { userId: string; guildIds: string[] | null }): Promise<GuildRecord[]> {
  const candidates = user.guildIds ?? (await localGuildsOfMember(deps.db, user.userId));
  const managed: GuildRecord[] = [];
  for (const id of candidates) {
    const guild = await findGuild(deps.db, id);
    if (guild && (await managesServer(deps, user.userId, id))) managed.push(guild);
  }
  return managed;
}
