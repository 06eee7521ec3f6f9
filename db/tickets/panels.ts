import type { Kysely, Selectable } from 'kysely';
import type { Database, TicketPanelsTable } from '../schema.js';
import type { PostedMessage } from '../shared/postedMessage.js';

export interface TicketPanelSettings {
  channelId: string;
  title: string | null;
  text: string;
  buttonLabel: string;
  /** The category its tickets' channels open under; null: at the top of the channel list. */
  categoryId: string | null;
  /** The roles that see its tickets' channels (besides the opener and the bot). */
  staffRoleIds: string[];
}

export interface TicketPanel extends TicketPanelSettings {
  guildId: string;
  panelId: number;
  message: PostedMessage | null;
  /** How many times its message was posted (a repost after a deletion counts). */
  posts: number;
  updatedAt: Date;
}

function toPanel(row: Selectable<TicketPanelsTable>): TicketPanel {
  return {
    guildId: row.guild_id,
    panelId: row.panel_id,
    channelId: row.channel_id,
    title: row.title,
    text: row.text,
    buttonLabel: row.button_label,
    categoryId: row.category_id,
    staffRoleIds: row.staff_role_ids,
    message: row.message_id && row.message_channel_id ? { channelId: row.message_channel_id, messageId: row.message_id } : null,
    posts: row.posts,
    updatedAt: row.updated_at,
  };
}

export async function findTicketPanel(db: Kysely<Database>, guildId: string, panelId: number): Promise<TicketPanel | undefined> {
  const row = await db.selectFrom('ticket_panels').selectAll().where('guild_id', '=', guildId).where('panel_id', '=', panelId).executeTakeFirst();
  return row && toPanel(row);
}

/** Writes the panel as it is now: its settings and the message that shows them. */
export async function saveTicketPanel(db: Kysely<Database>, p: TicketPanel): Promise<void> {
  const values = {
    channel_id: p.channelId,
    title: p.title,
    text: p.text,
    button_label: p.buttonLabel,
    category_id: p.categoryId,
    staff_role_ids: p.staffRoleIds,
    message_channel_id: p.message?.channelId ?? null,
    message_id: p.message?.messageId ?? null,
    posts: p.posts,
    updated_at: p.updatedAt,
  };
  await db
    .insertInto('ticket_panels')
    .values({ guild_id: p.guildId, panel_id: p.panelId, ...values })
    .onConflict((oc) => oc.columns(['guild_id', 'panel_id']).doUpdateSet(values))
    .execute();
}

/** A server's ticket panels, highest number first (the newest, as the console numbers them), below `before`. */
export async function listTicketPanels(db: Kysely<Database>, guildId: string, f: { before?: number; limit: number }): Promise<TicketPanel[]> {
  let q = db.selectFrom('ticket_panels').selectAll().where('guild_id', '=', guildId);
  if (f.before !== undefined) q = q.where('panel_id', '<', f.before);
  const rows = await q.orderBy('panel_id', 'desc').limit(f.limit).execute();
  return rows.map(toPanel);
}

/** The number a new panel of the server gets: one more than its highest. */
export async function nextTicketPanelId(db: Kysely<Database>, guildId: string): Promise<number> {
  const row = await db.selectFrom('ticket_panels').select((eb) => eb.fn.max('panel_id').as('top')).where('guild_id', '=', guildId).executeTakeFirst();
  return (row?.top ?? 0) + 1;
}
