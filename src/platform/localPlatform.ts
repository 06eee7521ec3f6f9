import type { Kysely } from 'kysely';
import {
  countPlatformMembers,
  findPlatformGuild,
  findPlatformMemberOfGuild,
  listPlatformChannels,
  listPlatformRoles,
} from '../../db/platform/local.js';
import { closePlatformChannel, createPlatformTicketChannel } from '../../db/platform/channels.js';
import { editPlatformMessage, postPlatformMessage } from '../../db/platform/messages.js';
import {
  banPlatformUser,
  createPlatformInvite,
  findPlatformBan,
  kickPlatformMember,
  listPlatformInvites,
  sendPlatformDirectMessage,
  setPlatformTimeout,
  unbanPlatformUser,
} from '../../db/platform/moderation.js';
import { searchPlatformMembers } from '../../db/platform/memberSearch.js';
import { changeMemberRole } from '../../db/platform/roles.js';
import type { Database } from '../../db/schema.js';
import { buttonProblem } from '../core/buttonLimits.js';
import { fitMessage } from '../core/messageLimits.js';
import {
  CHANNEL_TYPES,
  PlatformRefusedError,
  PlatformUnavailableError,
  type MessageOptions,
  type Platform,
  type PlatformButton,
  type PlatformChannelType,
  type PlatformMember,
} from '../core/platform.js';
import { readableMessage } from './readableMessage.js';

/** The buttons to record, refused as Discord would refuse them, so both adapters accept the same messages. */
function checkedButtons(options: MessageOptions | undefined): PlatformButton[] | undefined {
  const problem = options?.buttons && buttonProblem(options.buttons);
  if (problem) throw new PlatformRefusedError('INVALID_REQUEST', problem);
  return options?.buttons;
}

/** A platform_members row (or the member half of a join, checked present) as the Platform's member. */
const toMember = (row: { user_id: string; username: string; global_name: string | null; nickname: string | null; avatar: string | null; bot: boolean; role_ids: string[]; joined_at: Date | null; timed_out_until: Date | null }): PlatformMember => ({
  userId: row.user_id,
  username: row.username,
  globalName: row.global_name,
  nickname: row.nickname,
  avatarUrl: row.avatar,
  bot: row.bot,
  roleIds: row.role_ids,
  joinedAt: row.joined_at,
  timedOutUntil: row.timed_out_until,
});

const toChannelType = (type: string): PlatformChannelType =>
  (CHANNEL_TYPES as readonly string[]).includes(type) ? (type as PlatformChannelType) : 'other';

/**
 * The default adapter: the platform's state lives in PostgreSQL tables (platform_*), seeded by the demo
 * guild and the admin CLI, so every effect can be asserted in tests.
 */
export function createLocalPlatform(db: Kysely<Database>): Platform {
  async function requireReachable(guildId: string) {
    const guild = await findPlatformGuild(db, guildId);
    if (guild && !guild.reachable) throw new PlatformUnavailableError();
    return guild;
  }

  return {
    async getGuild(guildId) {
      const guild = await requireReachable(guildId);
      if (!guild) return undefined;
      return {
        id: guild.guild_id,
        name: guild.name,
        icon: guild.icon,
        iconUrl: guild.icon ? `https://cdn.local.invalid/icons/${guild.guild_id}/${guild.icon}.png` : null,
        ownerId: guild.owner_id,
        botUserId: guild.bot_user_id,
        approximateMemberCount: await countPlatformMembers(db, guildId),
      };
    },
    async listRoles(guildId) {
      await requireReachable(guildId);
      const rows = await listPlatformRoles(db, guildId);
      return rows.map((r) => ({
        id: r.role_id,
        name: r.name,
        color: r.color,
        position: r.position,
        managed: r.managed,
        hoist: r.hoist,
        mentionable: r.mentionable,
        permissions: BigInt(r.permissions),
      }));
    },
    async listChannels(guildId) {
      await requireReachable(guildId);
      const rows = await listPlatformChannels(db, guildId);
      return rows.map((c) => ({
        id: c.channel_id,
        name: c.name,
        type: toChannelType(c.type),
        parentId: c.parent_id,
        position: c.position,
      }));
    },
    async getMember(guildId, userId) {
      const row = await findPlatformMemberOfGuild(db, guildId, userId);
      if (row && !row.reachable) throw new PlatformUnavailableError();
      if (!row?.user_id) return undefined;
      return toMember({ ...row, user_id: row.user_id, username: row.username!, bot: row.bot!, role_ids: row.role_ids! });
    },
    async searchMembers(guildId, prefix, limit) {
      await requireReachable(guildId);
      return (await searchPlatformMembers(db, guildId, prefix, limit)).map(toMember);
    },
    async postMessage(guildId, channelId, content, idempotencyKey, options) {
      const id = await postPlatformMessage(db, { guildId, channelId, content: readableMessage(fitMessage(content, options)), idempotencyKey, buttons: checkedButtons(options) });
      if (id === undefined) throw new PlatformUnavailableError();
      return id;
    },
    async editMessage(guildId, channelId, messageId, content, options) {
      // One text per message here: an edit replaces all of it, embeds included (buttons as the options say).
      await requireReachable(guildId);
      return editPlatformMessage(db, { guildId, channelId, messageId, content: readableMessage(fitMessage(content, options)), buttons: checkedButtons(options) });
    },
    async changeRole(guildId, userId, roleId, action, reason) {
      await requireReachable(guildId);
      return changeMemberRole(db, { guildId, userId, roleId, action, reason });
    },
    async getBan(guildId, userId) {
      await requireReachable(guildId);
      const ban = await findPlatformBan(db, guildId, userId);
      return ban && { reason: ban.reason };
    },
    async ban(guildId, userId, reason) {
      await requireReachable(guildId);
      return banPlatformUser(db, { guildId, userId, reason });
    },
    async unban(guildId, userId, reason) {
      await requireReachable(guildId);
      return unbanPlatformUser(db, { guildId, userId, reason });
    },
    async kick(guildId, userId, reason) {
      await requireReachable(guildId);
      return kickPlatformMember(db, { guildId, userId, reason });
    },
    async timeout(guildId, userId, until, reason) {
      await requireReachable(guildId);
      return setPlatformTimeout(db, { guildId, userId, until, reason });
    },
    async sendDirectMessage(guildId, userId, content, idempotencyKey, options) {
      await requireReachable(guildId);
      return sendPlatformDirectMessage(db, { guildId, userId, content: readableMessage(fitMessage(content, options)), idempotencyKey, buttons: checkedButtons(options) });
    },
    async listInvites(guildId) {
      const guild = await requireReachable(guildId);
      // The local platform's invites are the bot's own (appeal approvals).
      return (await listPlatformInvites(db, guildId)).map((i) => ({
        code: i.code,
        inviterId: guild?.bot_user_id ?? null,
        channelId: i.channel_id,
        uses: i.uses,
        maxUses: i.max_uses,
      }));
    },
    async createInvite(guildId, channelId, maxUses, idempotencyKey) {
      await requireReachable(guildId);
      const code = await createPlatformInvite(db, { guildId, channelId, maxUses, idempotencyKey });
      return `https://chat.local.invalid/invite/${code}`;
    },

    async createTicketChannel(guildId, { name, parentId }, idempotencyKey) {
      // The local platform keeps no permissions: who may see the channel is Discord's concern alone.
      await requireReachable(guildId);
      return createPlatformTicketChannel(db, { guildId, name, parentId: parentId ?? null, idempotencyKey });
    },
    async closeTicketChannel(guildId, channelId, { thread }, idempotencyKey) {
      await requireReachable(guildId);
      return closePlatformChannel(db, { guildId, channelId, thread, idempotencyKey });
    },
  };
}
