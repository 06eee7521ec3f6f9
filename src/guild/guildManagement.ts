import type { Kysely } from 'kysely';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { findGuild, insertGuild, lockGuildFeatures, updateGuild, type GuildChanges, type GuildRecord } from '../../db/guild/guilds.js';
import { upsertPlatformGuild, upsertPlatformMember, upsertPlatformRoles } from '../../db/platform/local.js';
import { askPurgeBy } from '../../db/retention/purgePlan.js';
import type { Database } from '../../db/schema.js';
import { FEATURES, type Feature } from '../core/features.js';
import { Refusal } from '../core/refusal.js';

export class GuildManagementError extends Refusal<'GUILD_EXISTS' | 'GUILD_NOT_FOUND'> {}

export interface CreateGuildInput extends GuildRecord {
  ownerId: string;
  botUserId: string;
  actor: AuditActor;
}

/**
 * Registers a server with the service and, on the local platform, the server itself with its everyone
 * role, its owner and the bot as members.
 */
export async function createGuild(db: Kysely<Database>, input: CreateGuildInput): Promise<GuildRecord> {
  return db.transaction().execute((trx) => registerGuild(trx, input));
}

/** `createGuild` in the caller's transaction (the bot registers a server it is added to with its other rows). */
export async function registerGuild(trx: Kysely<Database>, input: CreateGuildInput): Promise<GuildRecord> {
  const { ownerId, botUserId, actor, ...record } = input;
  if (await findGuild(trx, record.id)) throw new GuildManagementError('GUILD_EXISTS', `Guild ${record.id} already exists.`);
  const guild = await insertGuild(trx, record);
  await upsertPlatformGuild(trx, { guildId: guild.id, name: guild.name, icon: guild.icon, ownerId, botUserId });
  await upsertPlatformRoles(trx, guild.id, [{ roleId: guild.id, name: '@everyone', position: 0 }]);
  await upsertPlatformMember(trx, { guildId: guild.id, userId: ownerId, username: 'owner', bot: false, roleIds: [] });
  await upsertPlatformMember(trx, { guildId: guild.id, userId: botUserId, username: 'community-bot', bot: true, roleIds: [] });
  await writeAudit(trx, { guildId: guild.id, actor, action: 'guild.create', target: { type: 'guild', id: guild.id }, data: record });
  return guild;
}

export async function changeGuild(
  db: Kysely<Database>,
  id: string,
  changes: GuildChanges,
  actor: AuditActor,
): Promise<GuildRecord> {
  return db.transaction().execute((trx) => applyGuildChanges(trx, id, changes, actor));
}

/**
 * Turns one feature on or off (the console's switch), as `changeGuild` with the server's features: the row is locked
 * first, so two switches flipped at once both count (neither writes a list read before the other's change).
 */
export async function setGuildFeature(db: Kysely<Database>, id: string, feature: Feature, on: boolean, actor: AuditActor): Promise<GuildRecord> {
  return db.transaction().execute(async (trx) => {
    const features = await lockGuildFeatures(trx, id);
    if (!features) throw new GuildManagementError('GUILD_NOT_FOUND', `Guild ${id} does not exist.`);
    const now = new Set(features);
    if (on) now.add(feature);
    else now.delete(feature);
    return applyGuildChanges(trx, id, { features: FEATURES.filter((f) => now.has(f)) }, actor);
  });
}

async function applyGuildChanges(trx: Kysely<Database>, id: string, changes: GuildChanges, actor: AuditActor): Promise<GuildRecord> {
  const guild = await updateGuild(trx, id, changes);
  if (!guild) throw new GuildManagementError('GUILD_NOT_FOUND', `Guild ${id} does not exist.`);
  if (changes.name !== undefined || changes.icon !== undefined) {
    await trx
      .updateTable('platform_guilds')
      .set({ name: guild.name, icon: guild.icon })
      .where('guild_id', '=', id)
      .execute();
  }
  // A shorter retention expires records at once: the purge is asked for a pass now (the start relay sends it).
  if (changes.plan !== undefined) await askPurgeBy(trx, new Date(0));
  await writeAudit(trx, { guildId: id, actor, action: 'guild.update', target: { type: 'guild', id }, data: changes });
  return guild;
}
