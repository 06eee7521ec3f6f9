import type { Kysely, Selectable } from 'kysely';
import type { ApplicationPanelsTable, Database } from '../schema.js';
import type { PostedMessage } from '../shared/postedMessage.js';

export interface ApplicationPanelSettings {
  channelId: string;
  text: string;
  /** The forms whose apply buttons it shows, in order; null: every form of the server, in console order. */
  formIds: number[] | null;
}

export interface ApplicationPanel extends ApplicationPanelSettings {
  guildId: string;
  panelId: number;
  message: PostedMessage | null;
  posts: number;
  updatedAt: Date;
}

function toPanel(row: Selectable<ApplicationPanelsTable>): ApplicationPanel {
  return {
    guildId: row.guild_id,
    panelId: row.panel_id,
    channelId: row.channel_id,
    text: row.text,
    formIds: row.form_ids,
    message: row.message_id && row.message_channel_id ? { channelId: row.message_channel_id, messageId: row.message_id } : null,
    posts: row.posts,
    updatedAt: row.updated_at,
  };
}

export async function findApplicationPanel(db: Kysely<Database>, guildId: string, panelId: number): Promise<ApplicationPanel | undefined> {
  const row = await db.selectFrom('application_panels').selectAll().where('guild_id', '=', guildId).where('panel_id', '=', panelId).executeTakeFirst();
  return row && toPanel(row);
}

export async function saveApplicationPanel(db: Kysely<Database>, p: ApplicationPanel): Promise<void> {
  const values = {
    channel_id: p.channelId,
    text: p.text,
    form_ids: p.formIds,
    message_channel_id: p.message?.channelId ?? null,
    message_id: p.message?.messageId ?? null,
    posts: p.posts,
    updated_at: p.updatedAt,
  };
  await db
    .insertInto('application_panels')
    .values({ guild_id: p.guildId, panel_id: p.panelId, ...values })
    .onConflict((oc) => oc.columns(['guild_id', 'panel_id']).doUpdateSet(values))
    .execute();
}

/** The server's forms, id and title, in console order: the buttons of a panel that shows every form. */
export const listFormTitles = (db: Kysely<Database>, guildId: string) =>
  db.selectFrom('application_forms').select(['id', 'title']).where('guild_id', '=', guildId).orderBy('position').orderBy('id').execute();

/** The server's application panels by number, those after `after`, at most `limit`. */
export async function listApplicationPanels(db: Kysely<Database>, guildId: string, page: { after?: number; limit: number }): Promise<ApplicationPanel[]> {
  const rows = await db
    .selectFrom('application_panels')
    .selectAll()
    .where('guild_id', '=', guildId)
    .$if(page.after !== undefined, (q) => q.where('panel_id', '>', page.after!))
    .orderBy('panel_id')
    .limit(page.limit)
    .execute();
  return rows.map(toPanel);
}

/** The highest panel number of the server, if it has a panel. */
export async function lastApplicationPanelId(db: Kysely<Database>, guildId: string): Promise<number | undefined> {
  const last = await db.selectFrom('application_panels').select((eb) => eb.fn.max('panel_id').as('max')).where('guild_id', '=', guildId).executeTakeFirst();
  return last?.max ?? undefined;
}
