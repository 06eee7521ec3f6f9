import type { FittedMessage } from '../../core/messageLimits.js';
import type { PlatformEmbed } from '../../core/platform.js';

// A fitted message as Discord's JSON (https://docs.discord.com/developers/resources/message#embed-object,
// #allowed-mentions-object): the port's shapes stop here.

function toDiscordEmbed(e: PlatformEmbed): Record<string, unknown> {
  return {
    ...(e.title !== undefined && { title: e.title }),
    ...(e.description !== undefined && { description: e.description }),
    ...(e.color !== undefined && { color: e.color }),
    ...(e.thumbnailUrl !== undefined && { thumbnail: { url: e.thumbnailUrl } }),
    ...(e.imageUrl !== undefined && { image: { url: e.imageUrl } }),
    ...(e.footer !== undefined && { footer: { text: e.footer } }),
    ...(e.timestamp !== undefined && { timestamp: e.timestamp.toISOString() }),
    ...(e.fields && { fields: e.fields.map((f) => ({ name: f.name, value: f.value, inline: f.inline ?? false })) }),
  };
}

/**
 * Content, embeds and allowed_mentions of a post or an edit. Who may be pinged is always named (`parse` stays empty
 * but for @everyone when meant), so a mention the sender did not mean, or @everyone inside a member's text, never
 * pings.
 */
export function discordMessageBody(m: FittedMessage): Record<string, unknown> {
  return {
    content: m.content,
    ...(m.embeds && { embeds: m.embeds.map(toDiscordEmbed) }),
    allowed_mentions: { parse: m.mentions.everyone ? ['everyone'] : [], users: m.mentions.userIds, roles: m.mentions.roleIds },
  };
}
