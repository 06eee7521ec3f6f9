import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { findTicketSettings } from '../../db/tickets/closes.js';
import { findTicketPanel, listTicketPanels, nextTicketPanelId, type TicketPanel } from '../../db/tickets/panels.js';
import { cursorPage } from '../core/cursorPage.js';
import { PanelRefusal } from '../core/panelRefusal.js';

/** A server's ticket panels, highest number first; pass `nextCursor` as `before` for the next page. */
export function readTicketPanelPage(db: Kysely<Database>, guildId: string, q: { before?: number; limit: number }) {
  return cursorPage(q.limit, (limit) => listTicketPanels(db, guildId, { before: q.before, limit }), (p) => p.panelId);
}

/** One ticket panel of the server; another server's, or none, is PANEL_NOT_FOUND. */
export async function readTicketPanel(db: Kysely<Database>, guildId: string, panelId: number): Promise<TicketPanel> {
  const panel = await findTicketPanel(db, guildId, panelId);
  if (!panel) throw new PanelRefusal('PANEL_NOT_FOUND', `This server has no ticket panel ${panelId}.`);
  return panel;
}

/** What the server's ticket settings page shows: the close log channel, transcripts on or off, the next panel's number. */
export async function readTicketSetup(db: Kysely<Database>, guildId: string) {
  const [settings, nextPanelId] = await Promise.all([findTicketSettings(db, guildId), nextTicketPanelId(db, guildId)]);
  return { ...settings, nextPanelId };
}
