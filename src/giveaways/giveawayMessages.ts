import type { GiveawayRecord } from '../../db/giveaways/giveaways.js';
import { MESSAGE_LIMITS, mentionList } from '../core/messageLimits.js';
import type { ComposedMessage, PlatformEmbed } from '../core/platform.js';

// What the bot posts for a giveaway: a headline (the ping role's mention, the only ping) above an embed in the
// giveaway's look (spec: Giveaway `embed`: colours, emoji, thumbnail and image). Times are Discord's timestamps,
// shown in each reader's own time zone.

const unix = (d: Date) => Math.floor(d.getTime() / 1000);
const rgb = (hex: string) => Number.parseInt(hex.slice(1), 16);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const NO_PING = { userIds: [], roleIds: [] };

function card(g: GiveawayRecord, color: string, lines: string[], footer: string, timestamp: Date): PlatformEmbed {
  return {
    title: g.prize,
    description: [...(g.description ? [g.description, ''] : []), ...lines].join('\n'),
    color: rgb(color),
    ...(g.embed.thumbnailUrl && { thumbnailUrl: g.embed.thumbnailUrl }),
    ...(g.embed.imageUrl && { imageUrl: g.embed.imageUrl }),
    footer,
    timestamp,
  };
}

/** The giveaway message while it runs: the ping role pinged in the headline, the card with its end as `<t:…:R>`. */
export function activeGiveawayMessage(g: GiveawayRecord): ComposedMessage {
  const lines = [
    `Ends <t:${unix(g.endsAt)}:R> (<t:${unix(g.endsAt)}:f>)`,
    `Hosted by <@${g.hostId}>`,
    `Winners: ${g.winnersCount}`,
    ...(g.requirements.entryCost > 0 ? [`Entry costs ${g.requirements.entryCost}.`] : []),
    'Press **Enter** below to take part.',
  ];
  return {
    content: `${g.pingRoleId ? `<@&${g.pingRoleId}> ` : ''}${g.embed.emoji} **GIVEAWAY** ${g.embed.emoji}`,
    embeds: [card(g, g.embed.color, lines, `${plural(g.winnersCount, 'winner')} · Ends`, g.endsAt)],
    mentions: { userIds: [], roleIds: g.pingRoleId ? [g.pingRoleId] : [] },
  };
}

/** The message once ended (its winners, "and N more" past what the card holds) or cancelled; it pings no one. */
export function closedGiveawayMessage(g: GiveawayRecord): ComposedMessage {
  const at = g.endedAt ?? g.cancelledAt ?? g.endsAt;
  const lines = [`Ended <t:${unix(at)}:R>`, `Hosted by <@${g.hostId}>`];
  const used = (g.description?.length ?? 0) + lines.join('\n').length + 16;
  const outcome =
    g.status === 'cancelled'
      ? 'This giveaway was cancelled.'
      : g.winnerIds.length > 0
        ? `Winners: ${mentionList(g.winnerIds, MESSAGE_LIMITS.description - used).text}`
        : 'No valid entrants, so no winner.';
  const headline = g.status === 'cancelled' ? '**GIVEAWAY CANCELLED**' : `${g.embed.emoji} **GIVEAWAY ENDED** ${g.embed.emoji}`;
  return {
    content: headline,
    embeds: [card(g, g.embed.endedColor, [...lines, outcome], `${plural(g.winnersCount, 'winner')} · Ended`, at)],
    mentions: NO_PING,
  };
}

/** The announcement in the channel after a draw: it pings the winners it names ("and N more" past 2,000). */
export function drawAnnouncement(g: GiveawayRecord, winnerIds: string[], reroll: boolean): ComposedMessage {
  if (winnerIds.length === 0) return { content: `No eligible entrants${reroll ? ' left' : ''} for **${g.prize}**: no winner drawn.`, mentions: NO_PING };
  const say = (list: string) =>
    reroll
      ? `${g.embed.emoji} New winner${winnerIds.length === 1 ? '' : 's'} for **${g.prize}**: ${list}!`
      : `${g.embed.emoji} Congratulations ${list}! You won **${g.prize}**!`;
  const { text, listed } = mentionList(winnerIds, MESSAGE_LIMITS.content - say('').length);
  return { content: say(text), mentions: { userIds: listed, roleIds: [] } };
}

export const winnerDirectMessage = (g: GiveawayRecord, guildName: string): ComposedMessage => ({
  content: `You won **${g.prize}** in ${guildName}! ${g.messageUrl ? `See ${g.messageUrl}. ` : ''}The host <@${g.hostId}> will be in touch.`,
  mentions: NO_PING,
});

/** A link to the giveaway message in the platform's form (`/channels/<guild>/<channel>/<message>`). */
export const giveawayMessageUrl = (guildId: string, channelId: string, messageId: string) =>
  `https://chat.local.invalid/channels/${guildId}/${channelId}/${messageId}`;
