import type { Kysely } from 'kysely';
import { findForm, listFormsWithCounts, type FormRecord, type FormWithCounts } from '../../db/applications/forms.js';
import { findApplicationPanel, lastApplicationPanelId, listApplicationPanels, listFormTitles, type ApplicationPanel } from '../../db/applications/panels.js';
import type { Database } from '../../db/schema.js';
import { PanelRefusal } from '../core/panelRefusal.js';
import { ApplicationRefusal } from './applicationRefusal.js';

// The console's reads of what staff set up: forms with their roles and channels (the API's Form has neither) and panels.

/** One page of the forms in console order, after a place in it (the cursor is the last form's place). */
export async function readFormPage(db: Kysely<Database>, guildId: string, page: { after?: number; limit: number }): Promise<{ items: FormWithCounts[]; nextCursor: string | null }> {
  const rows = await listFormsWithCounts(db, guildId, { after: page.after, limit: page.limit + 1 });
  const items = rows.slice(0, page.limit);
  return { items, nextCursor: rows.length > page.limit ? String(items.at(-1)!.position) : null };
}

/** A form of the server (FORM_NOT_FOUND for another server's). */
export async function readForm(db: Kysely<Database>, guildId: string, id: number): Promise<FormRecord> {
  const form = await findForm(db, guildId, id);
  if (!form) throw new ApplicationRefusal('FORM_NOT_FOUND', `Form ${id} is not a form of this server.`);
  return form;
}

/** One page of the application panels by number, and the number a new panel takes. */
export async function readApplicationPanelPage(db: Kysely<Database>, guildId: string, page: { after?: number; limit: number }) {
  const rows = await listApplicationPanels(db, guildId, { after: page.after, limit: page.limit + 1 });
  const items = rows.slice(0, page.limit);
  return { items, nextCursor: rows.length > page.limit ? String(items.at(-1)!.panelId) : null };
}

/** The number a new panel takes: one after the highest. */
export async function nextApplicationPanelId(db: Kysely<Database>, guildId: string): Promise<number> {
  return ((await lastApplicationPanelId(db, guildId)) ?? 0) + 1;
}

/** An application panel of the server (PANEL_NOT_FOUND for one never posted). */
export async function readApplicationPanel(db: Kysely<Database>, guildId: string, panelId: number): Promise<ApplicationPanel> {
  const panel = await findApplicationPanel(db, guildId, panelId);
  if (!panel) throw new PanelRefusal('PANEL_NOT_FOUND', `Application panel ${panelId} was never posted in this server.`);
  return panel;
}

/** Every form's id and title in console order: what a panel can show. */
export const readFormTitles = (db: Kysely<Database>, guildId: string) => listFormTitles(db, guildId);
