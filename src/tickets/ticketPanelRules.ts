import type { TicketPanelSettings } from '../../db/tickets/panels.js';
import { MAX_BUTTON_LABEL } from '../core/buttonLimits.js';
import { MAX_CONTENT } from '../core/panelMessages.js';

export const MAX_PANEL_TITLE = 100;
export const MAX_STAFF_ROLES = 10;

/** A change to a ticket panel: each field undefined keeps what the panel has (null clears an optional one). */
export interface TicketPanelChange {
  channelId?: string;
  title?: string | null;
  text?: string;
  buttonLabel?: string;
  categoryId?: string | null;
  staffRoleIds?: string[];
}

/** The panel's message: its title in bold over its text. */
export const ticketPanelContent = (s: Pick<TicketPanelSettings, 'title' | 'text'>) => (s.title ? `**${s.title}**\n${s.text}` : s.text);

/** The settings after the change, or why they cannot be (in words). A new panel needs a channel, a text and a label. */
export function mergeTicketPanel(before: TicketPanelSettings | undefined, c: TicketPanelChange): TicketPanelSettings | string {
  const channelId = c.channelId ?? before?.channelId;
  const text = c.text ?? before?.text;
  const buttonLabel = c.buttonLabel ?? before?.buttonLabel;
  if (!channelId || text === undefined || buttonLabel === undefined) return 'A new ticket panel needs a channel, a text and a button label.';
  const s: TicketPanelSettings = {
    channelId,
    title: c.title === undefined ? (before?.title ?? null) : c.title,
    text,
    buttonLabel,
    categoryId: c.categoryId === undefined ? (before?.categoryId ?? null) : c.categoryId,
    staffRoleIds: c.staffRoleIds ?? before?.staffRoleIds ?? [],
  };
  return ticketPanelProblem(s)?.message ?? s;
}

/** What is wrong with a panel's settings, and which setting to fix (`content`: title and text together). */
export interface TicketPanelProblem {
  setting: keyof TicketPanelSettings | 'content';
  message: string;
}

/** The first problem of complete settings (the console checks a form with it to name the field), if any. */
export function ticketPanelProblem(s: TicketPanelSettings): TicketPanelProblem | undefined {
  const problem = (setting: TicketPanelProblem['setting'], message: string) => ({ setting, message });
  if (s.text.trim() === '') return problem('text', 'The panel text cannot be empty.');
  if (s.title !== null && (s.title.trim() === '' || [...s.title].length > MAX_PANEL_TITLE)) return problem('title', `The panel title has 1 to ${MAX_PANEL_TITLE} characters.`);
  const label = [...s.buttonLabel.trim()].length;
  if (label === 0 || label > MAX_BUTTON_LABEL) return problem('buttonLabel', `The button label has 1 to ${MAX_BUTTON_LABEL} characters (Discord's limit); it has ${label}.`);
  const content = ticketPanelContent(s).length;
  if (content > MAX_CONTENT) return problem('content', `The panel's message would have ${content} characters; Discord takes at most ${MAX_CONTENT} (title and text together).`);
  if (s.staffRoleIds.length > MAX_STAFF_ROLES) return problem('staffRoleIds', `A panel has at most ${MAX_STAFF_ROLES} staff roles.`);
  if (new Set(s.staffRoleIds).size !== s.staffRoleIds.length) return problem('staffRoleIds', 'A staff role is named twice.');
  return undefined;
}
