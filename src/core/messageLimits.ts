import type { MessageMentions, MessageOptions, PlatformEmbed, PlatformEmbedField } from './platform.js';

/**
 * Discord's limits on what one message carries (https://docs.discord.com/developers/resources/message#create-message,
 * #embed-object-embed-limits, #allowed-mentions-object). Lengths are counted in UTF-16 units, which is never fewer
 * than Discord's characters, so a message fitted here is never refused for its length.
 */
export const MESSAGE_LIMITS = {
  content: 2000,
  embeds: 10,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  /** Title, description, field names and values and footer of every embed of the message together. */
  embedTotal: 6000,
  /** Users, and roles, an allowed_mentions may name. */
  mentionIds: 100,
} as const;

const ELLIPSIS = '…';

/** The text within `max` characters, a cut marked with an ellipsis (never half of a surrogate pair). */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  let end = max - ELLIPSIS.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, Math.max(0, end))}${ELLIPSIS}`;
}

/**
 * Users as mentions within `max` characters: as many as fit, then "and N more"; `listed` are the ones written
 * (the ones a ping may name).
 */
export function mentionList(userIds: readonly string[], max: number): { text: string; listed: string[] } {
  const all = userIds.map((id) => `<@${id}>`);
  const full = all.join(', ');
  if (full.length <= max) return { text: full, listed: [...userIds] };
  for (let n = all.length - 1; n >= 0; n -= 1) {
    const more = ` and ${all.length - n} more`;
    const text = n === 0 ? `${all.length} members` : `${all.slice(0, n).join(', ')}${more}`;
    if (text.length <= max) return { text, listed: userIds.slice(0, n) };
  }
  return { text: '', listed: [] };
}

const MENTION = /<@!?(\d{17,20})>/g;

/** The users a text mentions as `<@id>` (the default of who a message may ping). */
export const mentionedUsers = (content: string): string[] => [...new Set([...content.matchAll(MENTION)].map((m) => m[1]!))];

const fieldChars = (f: PlatformEmbedField) => f.name.length + f.value.length;
/** What an embed counts toward the 6,000 of a message. */
export const embedChars = (e: PlatformEmbed) =>
  (e.title?.length ?? 0) + (e.description?.length ?? 0) + (e.footer?.length ?? 0) + (e.fields ?? []).reduce((n, f) => n + fieldChars(f), 0);

function fitEmbed(e: PlatformEmbed): PlatformEmbed {
  const L = MESSAGE_LIMITS;
  return {
    ...e,
    ...(e.title !== undefined && { title: clip(e.title, L.title) }),
    ...(e.description !== undefined && { description: clip(e.description, L.description) }),
    ...(e.footer !== undefined && { footer: clip(e.footer, L.footer) }),
    ...(e.fields && { fields: e.fields.slice(0, L.fields).map((f) => ({ ...f, name: clip(f.name, L.fieldName), value: clip(f.value, L.fieldValue) })) }),
  };
}

/** Shortens the last embeds (descriptions, then fields from the end) until all of them count at most 6,000. */
function fitTotal(embeds: PlatformEmbed[]): PlatformEmbed[] {
  const fitted = embeds.map((e) => (e.fields ? { ...e, fields: [...e.fields] } : { ...e }));
  let over = fitted.reduce((n, e) => n + embedChars(e), 0) - MESSAGE_LIMITS.embedTotal;
  for (let i = fitted.length - 1; i >= 0 && over > 0; i -= 1) {
    const e = fitted[i]!;
    if (e.description) {
      const kept = clip(e.description, Math.max(0, e.description.length - over));
      over -= e.description.length - kept.length;
      e.description = kept;
    }
    while (over > 0 && e.fields && e.fields.length > 0) over -= fieldChars(e.fields.pop()!);
    if (over > 0 && e.footer) {
      over -= e.footer.length;
      delete e.footer;
    }
    if (over > 0 && e.title) {
      const kept = clip(e.title, Math.max(1, e.title.length - over));
      over -= e.title.length - kept.length;
      e.title = kept;
    }
  }
  return fitted;
}

const distinct = (ids: readonly string[]) => [...new Set(ids)].slice(0, MESSAGE_LIMITS.mentionIds);

/** A message as it is sent: within every limit above, and who it may ping stated. */
export interface FittedMessage {
  content: string;
  embeds?: PlatformEmbed[];
  mentions: MessageMentions;
}

/** Fits a message within Discord's limits; every adapter sends what this returns, so no sender can pass them. */
export function fitMessage(content: string, options: MessageOptions = {}): FittedMessage {
  const text = clip(content, MESSAGE_LIMITS.content);
  const mentions = options.mentions ?? { userIds: mentionedUsers(text), roleIds: [] };
  return {
    content: text,
    ...(options.embeds && { embeds: fitTotal(options.embeds.slice(0, MESSAGE_LIMITS.embeds).map(fitEmbed)) }),
    mentions: { userIds: distinct(mentions.userIds), roleIds: distinct(mentions.roleIds), everyone: mentions.everyone === true },
  };
}
