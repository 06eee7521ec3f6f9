import { ChannelType, PermissionFlagsBits, type APIChannel, type APIMessage } from 'discord-api-types/v10';
import { componentRefusal } from './componentRules.js';
import { discordError, type FakeAnswer } from './faults.js';
import { findChannel, json, unknown, type FakeRequest, type FakeRoute } from './fakeRoute.js';
import { messageBodyRefusal, pingsOf } from './messageLimits.js';
import { earlierByNonce, nonceRefusal, rememberNonce } from './messageNonces.js';
import { channelPermissions } from './permissions.js';
import type { FakeDiscordState, FakeGuild } from './state.js';

function postMessage(state: FakeDiscordState, req: FakeRequest): FakeAnswer {
  const channelId = req.params.channel!;
  const found = findChannel(state, channelId);
  if (!found) return unknown.channel();
  if (found.channel.type === ChannelType.DM) {
    const recipient = [...state.dmChannels.entries()].find(([, id]) => id === channelId)![0];
    if (state.closedDms.has(recipient)) return discordError(403, 50007, 'Cannot send messages to this user');
  }
  // Components first (their own rules), then the content and embed limits and the empty-message check.
  const refused = componentRefusal(req.body) ?? messageBodyRefusal(req.body) ?? nonceRefusal(req.body);
  if (refused) return refused;
  const earlier = earlierByNonce(state, channelId, req.body);
  if (earlier) return json(earlier);
  const message = {
    id: state.nextId(),
    channel_id: channelId,
    author: state.bot,
    content: String(req.body?.content ?? ''),
    timestamp: new Date(state.now()).toISOString(),
    edited_timestamp: null,
    nonce: req.body?.nonce ?? undefined,
    ...messageParts(state, found, req.body, { content: '', embeds: [], components: [] }),
  } as APIMessage;
  state.messages.set(message.id, message);
  rememberNonce(state, message);
  return json(message);
}

/**
 * What a post or an edit sets beside the content: embeds (dropped, as Discord does, where the bot lacks Embed Links),
 * components, and who the content pings. An edit keeps the embeds and components it does not send.
 */
function messageParts(
  state: FakeDiscordState,
  where: { guild?: FakeGuild; channel: APIChannel },
  body: Record<string, unknown> | null,
  before: { content: string; embeds: unknown[]; components?: unknown[] },
) {
  const { guild, channel } = where;
  const held = guild ? channelPermissions(state, guild, channel) : PermissionFlagsBits.EmbedLinks | PermissionFlagsBits.MentionEveryone;
  const embeds = Array.isArray(body?.embeds) ? body.embeds : before.embeds;
  const content = String(body?.content ?? before.content);
  const pings = pingsOf(content, body?.allowed_mentions as never, {
    mentionable: (roleId) => guild?.roles.get(roleId)?.mentionable === true,
    botMayMentionEveryone: (held & PermissionFlagsBits.MentionEveryone) !== 0n,
  });
  return {
    embeds: (held & PermissionFlagsBits.EmbedLinks) !== 0n ? embeds : [],
    components: Array.isArray(body?.components) ? body.components : (before.components ?? []),
    mentions: pings.userIds.map((id) => state.users.get(id) ?? { id }),
    mention_roles: pings.roleIds,
    mention_everyone: pings.everyone,
  };
}

/** Messages the bot posts and edits, in a server's channel or a member's DM channel (opened here). */
export const MESSAGE_ROUTES: FakeRoute[] = [
  { method: 'POST', pattern: '/channels/:channel/messages', handler: postMessage },
  {
    method: 'PATCH',
    pattern: '/channels/:channel/messages/:message',
    handler: (state, req) => {
      const message = state.messages.get(req.params.message!);
      if (!message || message.channel_id !== req.params.channel) return unknown.message();
      // Only the bot's own messages are edited, so only they ever carry its buttons (Discord shows components only there).
      if (message.author.id !== state.bot.id) return discordError(403, 50005, 'Cannot edit a message authored by another user');
      const refused = componentRefusal(req.body) ?? messageBodyRefusal(req.body, message);
      if (refused) return refused;
      message.content = String(req.body?.content ?? message.content);
      Object.assign(message, messageParts(state, findChannel(state, message.channel_id)!, req.body, message));
      message.edited_timestamp = new Date().toISOString();
      return json(message);
    },
  },
  {
    method: 'POST',
    pattern: '/users/@me/channels',
    handler: (state, req) => {
      const recipient = String(req.body?.recipient_id ?? '');
      const user = state.users.get(recipient);
      if (!user) return unknown.user();
      let id = state.dmChannels.get(recipient);
      if (!id) state.dmChannels.set(recipient, (id = state.nextId()));
      return json({ id, type: ChannelType.DM, recipients: [user] });
    },
  },
];
