import type { PlatformButton } from './platform.js';

// Discord's limits on buttons under a message (https://docs.discord.com/developers/components/reference#button and
// #action-row): at most 5 action rows, 5 buttons a row, a custom_id of 1 to 100 characters and a label of at most 80.
// Pure: the use cases check their buttons with it before any post, the Discord adapter lays buttons out with it.

export const MAX_BUTTON_ROWS = 5;
export const MAX_BUTTONS_PER_ROW = 5;
export const MAX_BUTTONS = MAX_BUTTON_ROWS * MAX_BUTTONS_PER_ROW;
export const MAX_BUTTON_LABEL = 80;
export const MAX_CUSTOM_ID = 100;

/** The buttons in rows of five, in order. */
export function buttonRows(buttons: readonly PlatformButton[]): PlatformButton[][] {
  const rows: PlatformButton[][] = [];
  for (let i = 0; i < buttons.length; i += MAX_BUTTONS_PER_ROW) rows.push(buttons.slice(i, i + MAX_BUTTONS_PER_ROW));
  return rows;
}

/** Why Discord would refuse these buttons, in words; undefined when it would take them. */
export function buttonProblem(buttons: readonly PlatformButton[]): string | undefined {
  if (buttons.length > MAX_BUTTONS) return `A message holds at most ${MAX_BUTTONS} buttons (${MAX_BUTTON_ROWS} rows of ${MAX_BUTTONS_PER_ROW}); this one would have ${buttons.length}.`;
  const ids = new Set<string>();
  for (const b of buttons) {
    if (b.id.length === 0 || b.id.length > MAX_CUSTOM_ID) return `A button's custom_id has 1 to ${MAX_CUSTOM_ID} characters ("${b.id.slice(0, 20)}..." has ${b.id.length}).`;
    if (ids.has(b.id)) return `Two buttons of one message share the custom_id "${b.id}".`;
    ids.add(b.id);
    if (b.label.trim().length === 0 || [...b.label].length > MAX_BUTTON_LABEL) return `A button's label has 1 to ${MAX_BUTTON_LABEL} characters ("${b.label.slice(0, 20)}" has ${[...b.label].length}).`;
  }
  return undefined;
}

/** A label cut to Discord's 80 characters by code point (never half a surrogate pair), with an ellipsis when cut. */
export function fitButtonLabel(label: string): string {
  const chars = [...label.trim()];
  return chars.length <= MAX_BUTTON_LABEL ? chars.join('') : `${chars.slice(0, MAX_BUTTON_LABEL - 1).join('')}…`;
}
