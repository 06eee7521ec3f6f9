import { createHash } from 'node:crypto';
import {
  Routes,
  type APIBan,
  type APIChannel,
  type APIExtendedInvite,
  type APIGuild,
  type APIGuildMember,
  type APIInvite,
  type APIMessage,
  type APIRole,
  type APIThreadList,
  type APIUser,
} from 'discord-api-types/v10';
import { BOT_PERMISSION } from '../../core/botPermissions.js';
import { buttonProblem, buttonRows } from '../../core/buttonLimits.js';
import { fitMessage } from '../../core/messageLimits.js';
import { PlatformRefusedError, type MessageOptions, type Platform, type PlatformMember } from '../../core/platform.js';
import { createDiscordCaller, type DiscordPlatformOptions } from './discordCaller.js';
import { DISCORD } from './discordErrors.js';
import { discordMessageBody } from './discordMessage.js';
import { toChannel, toGuild, toInvite, toMember, toRole } from './discordShapes.js';
import { isTicketChannelOf, ticketChannelBody } from './ticketChannelShape.js';
import { createTtlCache } from './ttlCache.js';

export type { DiscordPlatformOptions };

/** Discord's cap on a timeout (https://discord.com/developers/docs/resources/guild#modify-guild-member). */
const MAX_TIMEOUT_MS = 28 * 24 * 3600 * 1000;
const AUDIT_REASON_MAX = 512;

/** Discord's `nonce` (at most 25 characters) from an idempotency key: the same key, the same nonce. */
export const nonceOf = (idempotencyKey: string) => createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 25);

/**
 * The Discord adapter: every Platform method on REST v10 through @discordjs/rest, which keeps per-route
 * buckets and the global limit. The library's own retries are off (its 5xx retries have no backoff and its 429
 * retries never end: TOOLCHAIN.md pitfall 12): a call either succeeds, waits out a short rate limit, or fails
 * typed, and the activity's retry policy does the rest.
 */
export function createDiscordPlatform(options: DiscordPlatformOptions): Platform {
  const { clock } = options;
  const { call, unless, guard } = createDiscordCaller(options);
  const members = createTtlCache<PlatformMember | undefined>(clock, options.memberCacheMs ?? 300_000);
  const guildReads = createTtlCache<unknown>(clock, options.guildCacheMs ?? 30_000);
  let botUser: Promise<APIUser> | undefined;
  const invites = new Map<string, string>();
  const ticketChannels = new Map<string, Promise<string>>();

  function bot(): Promise<APIUser> {
    botUser ??= call<APIUser>('reading the bot user', 'get', Routes.user('@me')).catch((err: unknown) => {
      botUser = undefined;
      throw err;
    });
    return botUser;
  }

  const audit = (reason: string | null | undefined, fallback: string) => (reason || fallback).slice(0, AUDIT_REASON_MAX);
  const memberKey = (guildId: string, userId: string) => `${guildId}:${userId}`;

  /** Reads of a server the bot was removed from are not sent either. */
  const inServer = (guildId: string, what: string) => guard.require(guildId, 0n, what, 'nothing');

  async function freshMember(guildId: string, userId: string): Promise<PlatformMember | undefined> {
    await inServer(guildId, 'reading a member');
    const m = await unless([DISCORD.UnknownMember, DISCORD.UnknownUser], undefined, () =>
      call<APIGuildMember>('reading a member', 'get', Routes.guildMember(guildId, userId)),
    );
    return m && toMember(guildId, m);
  }

  async function postWithNonce(channelId: string, content: string, idempotencyKey: string, options: MessageOptions = {}, guildId?: string): Promise<APIMessage> {
    return call<APIMessage>(
      'posting a message',
      'post',
      Routes.channelMessages(channelId),
      { body: { ...discordMessageBody(fitMessage(content, options)), nonce: nonceOf(idempotencyKey), enforce_nonce: true, ...componentsOf(options) } },
      guildId,
    );
  }

  async function getBan(guildId: string, userId: string) {
    await guard.require(guildId, BOT_PERMISSION.banMembers, 'reading a ban', 'Ban Members');
    const ban = await unless([DISCORD.UnknownBan], undefined, () => call<APIBan>('reading a ban', 'get', Routes.guildBan(guildId, userId)));
    return ban && { reason: ban.reason };
  }

  return {
    async getGuild(guildId, read) {
      const guild = await guildReads.get(
        `guild:${guildId}`,
        () =>
          unless([DISCORD.UnknownGuild, DISCORD.MissingAccess], undefined, async () => {
            await inServer(guildId, 'reading the server');
            return call<APIGuild>('reading the server', 'get', Routes.guild(guildId), { query: new URLSearchParams({ with_counts: 'true' }) });
          }),
        read?.fresh,
      );
      if (!guild) return undefined;
      return toGuild(guild as APIGuild, (await bot()).id);
    },
    async listRoles(guildId, read) {
      await inServer(guildId, 'listing roles');
      const roles = (await guildReads.get(`roles:${guildId}`, () => call<APIRole[]>('listing roles', 'get', Routes.guildRoles(guildId)), read?.fresh)) as APIRole[];
      return roles.map(toRole);
    },
    async listChannels(guildId) {
      await inServer(guildId, 'listing channels');
      const channels = (await guildReads.get(`channels:${guildId}`, async () => {
        const [listed, active] = await Promise.all([
          call<APIChannel[]>('listing channels', 'get', Routes.guildChannels(guildId)),
          call<APIThreadList>('listing threads', 'get', Routes.guildActiveThreads(guildId)),
        ]);
        return [...listed, ...active.threads];
      })) as APIChannel[];
      return channels.map(toChannel);
    },
    getMember: (guildId, userId, read) => members.get(memberKey(guildId, userId), () => freshMember(guildId, userId), read?.fresh),
    async searchMembers(guildId, prefix, limit) {
      await inServer(guildId, 'searching members');
      const query = new URLSearchParams({ query: prefix, limit: String(limit) });
      const found = await call<APIGuildMember[]>('searching members', 'get', Routes.guildMembersSearch(guildId), { query });
      return found.map((m) => toMember(guildId, m));
    },

    async postMessage(guildId, channelId, content, idempotencyKey, options) {
      return (await postWithNonce(channelId, content, idempotencyKey, options, guildId)).id;
    },
    async editMessage(guildId, channelId, messageId, content, options = {}) {
      const edited = await unless([DISCORD.UnknownMessage, DISCORD.UnknownChannel], undefined, () =>
        call<APIMessage>(
          'editing a message',
          'patch',
          Routes.channelMessage(channelId, messageId),
          { body: { ...discordMessageBody(fitMessage(content, options)), ...componentsOf(options) } },
          guildId,
        ),
      );
      return edited !== undefined;
    },
    async changeRole(guildId, userId, roleId, action, reason) {
      // The member as it is now, not as cached: the "already done" check must see the last change.
      const member = await freshMember(guildId, userId);
      members.forget(memberKey(guildId, userId));
      if (!member || member.roleIds.includes(roleId) === (action === 'add')) return false;
      await guard.require(guildId, BOT_PERMISSION.manageRoles, action === 'add' ? 'giving a role' : 'taking a role', 'Manage Roles');
      const route = Routes.guildMemberRole(guildId, userId, roleId);
      const what = action === 'add' ? 'giving a role' : 'taking a role';
      const done = await unless([DISCORD.UnknownMember], false, () =>
        call(what, action === 'add' ? 'put' : 'delete', route, { reason: audit(reason, `Role ${action}`) }).then(() => true),
      );
      return done;
    },

    getBan,
    async ban(guildId, userId, reason, deleteMessageSeconds) {
      if (await getBan(guildId, userId)) return false;
      members.forget(memberKey(guildId, userId));
      await call('banning', 'put', Routes.guildBan(guildId, userId), {
        body: { delete_message_seconds: Math.min(Math.max(0, deleteMessageSeconds), 604_800) },
        reason: audit(reason, 'Ban'),
      });
      return true;
    },
    async unban(guildId, userId, reason) {
      await guard.require(guildId, BOT_PERMISSION.banMembers, 'unbanning', 'Ban Members');
      // 10026 Unknown Ban: lifted already (by this call's earlier try or by someone else).
      return unless([DISCORD.UnknownBan], false, () => call('unbanning', 'delete', Routes.guildBan(guildId, userId), { reason: audit(reason, 'Unban') }).then(() => true));
    },
    async kick(guildId, userId, reason) {
      await guard.require(guildId, BOT_PERMISSION.kickMembers, 'kicking', 'Kick Members');
      members.forget(memberKey(guildId, userId));
      return unless([DISCORD.UnknownMember], false, () => call('kicking', 'delete', Routes.guildMember(guildId, userId), { reason: audit(reason, 'Kick') }).then(() => true));
    },
    async timeout(guildId, userId, until, reason) {
      const now = clock.now().getTime();
      if (until && until.getTime() - now > MAX_TIMEOUT_MS) {
        throw new PlatformRefusedError('INVALID_REQUEST', 'A timeout lasts at most 28 days on Discord.');
      }
      const member = await freshMember(guildId, userId);
      members.forget(memberKey(guildId, userId));
      if (!member) return false;
      const current = member.timedOutUntil && member.timedOutUntil.getTime() > now ? member.timedOutUntil.getTime() : null;
      if ((until?.getTime() ?? null) === current) return false;
      await guard.require(guildId, BOT_PERMISSION.moderateMembers, 'timing out', 'Moderate Members');
      return unless([DISCORD.UnknownMember], false, () =>
        call('timing out', 'patch', Routes.guildMember(guildId, userId), {
          body: { communication_disabled_until: until ? until.toISOString() : null },
          reason: audit(reason, until ? 'Timeout' : 'Timeout lifted'),
        }).then(() => true),
      );
    },
    async sendDirectMessage(_guildId, userId, content, idempotencyKey, options) {
      // 50007: the user's privacy settings (or a block) refuse DMs from the bot; 10013: no such user.
      return unless([DISCORD.CannotSendMessagesToThisUser, DISCORD.UnknownUser], 'failed' as const, async () => {
        const channel = await call<APIChannel>('opening a DM', 'post', Routes.userChannels(), { body: { recipient_id: userId } });
        await postWithNonce(channel.id, content, idempotencyKey, options);
        return 'sent' as const;
      });
    },
    async listInvites(guildId) {
      await guard.require(guildId, BOT_PERMISSION.manageGuild, 'listing invites', 'Manage Server');
      // Never cached: attribution compares the counts as they are now.
      const invites = await call<Array<APIExtendedInvite | APIInvite>>('listing invites', 'get', Routes.guildInvites(guildId));
      // With View Audit Log but not Manage Server, Discord lists the invites without their metadata (no `uses`).
      if (invites.some((i) => !('uses' in i) || typeof i.uses !== 'number')) {
        throw new PlatformRefusedError('BOT_MISSING_PERMISSIONS', 'Discord listed the invites without their use counts: the bot needs Manage Server.');
      }
      return (invites as APIExtendedInvite[]).map(toInvite);
    },
    async createInvite(guildId, channelId, maxUses, idempotencyKey) {
      // Discord has no idempotency for invites: a retry in this process reuses the first code; a retry elsewhere
      // makes a second single-use invite, which costs nothing but an unused link.
      const known = invites.get(idempotencyKey);
      if (known) return known;
      const invite = await call<APIInvite>(
        'creating an invite',
        'post',
        Routes.channelInvites(channelId),
        { body: { max_uses: maxUses, max_age: 604_800, unique: true }, reason: audit(null, `Invite ${idempotencyKey}`) },
        guildId,
      );
      const url = `https://discord.gg/${invite.code}`;
      invites.set(idempotencyKey, url);
      return url;
    },
    createTicketChannel(guildId, request, idempotencyKey) {
      // Discord has no idempotency for channels: a call while the first is under way gets its channel, and one made
      // earlier (a create whose answer was lost, or by a process since gone) is found by its name and the opener's overwrite.
      const known = ticketChannels.get(idempotencyKey);
      if (known) return known;
      const created = (async () => {
        const listed = await call<APIChannel[]>('listing channels', 'get', Routes.guildChannels(guildId));
        const earlier = listed.find((c) => isTicketChannelOf(c, request));
        if (earlier) return earlier.id;
        const botId = (await bot()).id;
        const channel = await call<APIChannel>('creating a ticket channel', 'post', Routes.guildChannels(guildId), {
          body: ticketChannelBody(guildId, request, botId),
          reason: audit(null, `Ticket channel (${idempotencyKey})`),
        });
        guildReads.forget(`channels:${guildId}`);
        return channel.id;
      })();
      // Kept only while under way: once made, the channel is found by the lookup above.
      ticketChannels.set(idempotencyKey, created);
      const settled = () => ticketChannels.delete(idempotencyKey);
      created.then(settled, settled);
      return created;
    },
    async closeTicketChannel(guildId, channelId, { thread }, idempotencyKey) {
      guildReads.forget(`channels:${guildId}`);
      const reason = audit(null, `Ticket closed (${idempotencyKey})`);
      if (!thread) {
        return unless([DISCORD.UnknownChannel], false, () => call('deleting a ticket channel', 'delete', Routes.channel(channelId), { reason }).then(() => true));
      }
      const current = await unless([DISCORD.UnknownChannel], undefined, () => call<APIChannel>('reading a ticket thread', 'get', Routes.channel(channelId)));
      const meta = (current as { thread_metadata?: { archived?: boolean; locked?: boolean } } | undefined)?.thread_metadata;
      if (!current || (meta?.archived && meta.locked)) return false;
      await call('archiving a ticket thread', 'patch', Routes.channel(channelId), { body: { archived: true, locked: true }, reason });
      return true;
    },
  };
}

/**
 * Buttons as Discord's components: action rows of five primary buttons; none given, no field at all. Buttons Discord
 * would refuse (over 25, a long custom_id or label) are refused here, before a request that would count as invalid.
 */
function componentsOf(options: MessageOptions): { components?: unknown[] } {
  if (options.buttons === undefined) return {};
  const problem = buttonProblem(options.buttons);
  if (problem) throw new PlatformRefusedError('INVALID_REQUEST', problem);
  return {
    components: buttonRows(options.buttons).map((row) => ({ type: 1, components: row.map((b) => ({ type: 2, style: 1, custom_id: b.id, label: b.label })) })),
  };
}
