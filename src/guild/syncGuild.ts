import type { Kysely } from 'kysely';
import { findGuild, rememberGuildLook, type GuildRecord } from '../../db/guild/guilds.js';
import { upsertPlatformMember } from '../../db/platform/local.js';
import { refreshPlatformGuild, replacePlatformChannels, replacePlatformRoles } from '../../db/platform/mirror.js';
import type { Database } from '../../db/schema.js';
import type { PlatformChannel, PlatformInvite, PlatformMember, PlatformRole } from '../core/platform.js';
import { replaceInviteSnapshot } from '../invites/inviteSnapshot.js';
import { registerGuild } from './guildManagement.js';
import { channelInput, roleInput } from './platformMirror.js';

/** A server as the platform shows it when the bot connects or is added (Discord's GUILD_CREATE). */
export interface GuildSnapshot {
  id: string;
  name: string;
  icon: string | null;
  ownerId: string;
  botUserId: string;
  roles: PlatformRole[];
  channels: PlatformChannel[];
  /** The bot's own member (its roles decide what it may do), when the platform sent it. */
  botMember: PlatformMember | undefined;
  /** Null when the invites could not be read (the bot lacks Manage Server): the snapshot is left as it was. */
  invites: PlatformInvite[] | null;
  at: Date;
}

/**
 * Registers a server the service does not know yet (as `admin guild create` does, with its defaults: Free, no
 * feature on, audit `guild.create` by the system) or refreshes one it knows: name and icon, owner, roles, channels,
 * the bot's member and the invite snapshot that attributes joins. Plan, features and block are never touched.
 */
export async function syncGuild(trx: Kysely<Database>, s: GuildSnapshot): Promise<{ guild: GuildRecord; registered: boolean }> {
  const known = await findGuild(trx, s.id);
  const guild =
    known ??
    (await registerGuild(trx, {
      id: s.id,
      name: s.name.slice(0, 100),
      icon: s.icon,
      locale: 'en',
      plan: 'free',
      features: [],
      blocked: false,
      ownerId: s.ownerId,
      botUserId: s.botUserId,
      actor: { type: 'system' },
    }));
  if (known) await rememberGuildLook(trx, s.id, { name: s.name.slice(0, 100), icon: s.icon });
  await refreshPlatformGuild(trx, { guildId: s.id, name: s.name, icon: s.icon, ownerId: s.ownerId, botUserId: s.botUserId });
  await replacePlatformRoles(trx, s.id, s.roles.map(roleInput));
  await replacePlatformChannels(trx, s.id, s.channels.map(channelInput));
  if (s.botMember) {
    const m = s.botMember;
    await upsertPlatformMember(trx, { guildId: s.id, userId: m.userId, username: m.username, globalName: m.globalName, nickname: m.nickname, bot: true, roleIds: m.roleIds });
  }
  if (s.invites) await replaceInviteSnapshot(trx, s.id, s.invites, s.at);
  return { guild, registered: !known };
}
