import type { ComposedMessage } from '../core/platform.js';

/** The placeholders a level-up message may use: the member's mention and the level reached. */
export const LEVEL_UP_PLACEHOLDERS = ['{user}', '{level}'] as const;

/** Longest message staff may set: it becomes the card's text, well inside Discord's 4,096. */
export const LEVEL_UP_TEMPLATE_MAX = 1000;

/** Discord's blurple: the level-up card's colour. */
const LEVEL_UP_COLOR = 0x5865f2;

/** The template with `{user}` as the member's mention and `{level}` as the level reached. */
export const levelUpText = (template: string, userId: string, level: number): string =>
  template.replaceAll('{user}', `<@${userId}>`).replaceAll('{level}', String(level));

/** Placeholders in a template that are none of LEVEL_UP_PLACEHOLDERS (a typo staff should hear about). */
export const unknownPlaceholders = (template: string): string[] =>
  [...new Set(template.match(/\{[^{}\s]*\}/g) ?? [])].filter((p) => !(LEVEL_UP_PLACEHOLDERS as readonly string[]).includes(p));

/**
 * The announcement: a card titled with the level, the staff's text inside. In a channel the member is pinged in the
 * content, and only them (a template naming @everyone or a role pings no one); in a DM the card alone.
 */
export function levelUpMessage(template: string, m: { userId: string; level: number; direct: boolean }): ComposedMessage {
  return {
    content: m.direct ? '' : `<@${m.userId}>`,
    embeds: [{ title: `Level ${m.level}`, description: levelUpText(template, m.userId, m.level), color: LEVEL_UP_COLOR }],
    mentions: { userIds: m.direct ? [] : [m.userId], roleIds: [] },
  };
}
