import type { GiveawayRecord } from '../../db/giveaways/giveaways.js';

// What the bot posts. The Platform port carries text, so the embed's look is written as its first line.

const unix = (d: Date) => Math.floor(d.getTime() / 1000);
const mentions = (ids: string[]) => ids.map((id) => `<@${id}>`).join(', ');

function body(g: GiveawayRecord, color: string): string[] {
  return [
    `[embed ${color}${g.embed.thumbnailUrl ? ` thumbnail ${g.embed.thumbnailUrl}` : ''}${g.embed.imageUrl ? ` image ${g.embed.imageUrl}` : ''}]`,
    `${g.embed.emoji} **${g.prize}** ${g.embed.emoji}`,
    ...(g.description ? [g.description] : []),
  ];
}

/** The giveaway message while it runs (the ping role mentioned first). */
export function activeGiveawayMessage(g: GiveawayRecord): string {
  return [
    ...(g.pingRoleId ? [`<@&${g.pingRoleId}>`] : []),
    ...body(g, g.embed.color),
    `Ends <t:${unix(g.endsAt)}:R> · ${g.winnersCount} winner${g.winnersCount === 1 ? '' : 's'} · hosted by <@${g.hostId}>`,
    ...(g.requirements.entryCost > 0 ? [`Entry costs ${g.requirements.entryCost}.`] : []),
    'Press the button to enter.',
  ].join('\n');
}

/** The message once ended (its winners) or cancelled. */
export function closedGiveawayMessage(g: GiveawayRecord): string {
  const outcome =
    g.status === 'cancelled' ? 'This giveaway was cancelled.' : g.winnerIds.length > 0 ? `Winners: ${mentions(g.winnerIds)}` : 'No valid entrants, so no winner.';
  return [...body(g, g.embed.endedColor), `Ended <t:${unix(g.endedAt ?? g.cancelledAt ?? g.endsAt)}:R> · hosted by <@${g.hostId}>`, outcome].join('\n');
}

/** The announcement in the channel after a draw. */
export function drawAnnouncement(g: GiveawayRecord, winnerIds: string[], reroll: boolean): string {
  if (winnerIds.length === 0) return `No eligible entrants${reroll ? ' left' : ''} for **${g.prize}**: no winner drawn.`;
  return reroll
    ? `${g.embed.emoji} New winner${winnerIds.length === 1 ? '' : 's'} for **${g.prize}**: ${mentions(winnerIds)}!`
    : `${g.embed.emoji} Congratulations ${mentions(winnerIds)}! You won **${g.prize}**!`;
}

export const winnerDirectMessage = (g: GiveawayRecord, guildName: string) =>
  `You won **${g.prize}** in ${guildName}! ${g.messageUrl ? `See ${g.messageUrl}. ` : ''}The host <@${g.hostId}> will be in touch.`;

/** A link to the giveaway message in the platform's form (`/channels/<guild>/<channel>/<message>`). */
export const giveawayMessageUrl = (guildId: string, channelId: string, messageId: string) =>
  `https://chat.local.invalid/channels/${guildId}/${channelId}/${messageId}`;
