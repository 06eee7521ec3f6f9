import type { ColumnType, Generated } from 'kysely';

export interface GiveawaySettingsTable {
  guild_id: string;
  color: ColumnType<string, string | undefined, string>;
  ended_color: ColumnType<string, string | undefined, string>;
  emoji: ColumnType<string, string | undefined, string>;
  image_url: string | null;
  thumbnail_url: string | null;
  dm_winners: ColumnType<boolean, boolean | undefined, boolean>;
}

export type GiveawayStatus = 'scheduled' | 'active' | 'ended' | 'cancelled';
export type GiveawayEndBy = 'workflow' | 'batch';

export interface GiveawaysTable {
  guild_id: string;
  id: number;
  status: GiveawayStatus;
  prize: string;
  description: string | null;
  channel_id: string;
  message_id: string | null;
  message_url: string | null;
  winners_count: number;
  starts_at: Date;
  ends_at: Date;
  entries_closed_at: Date | null;
  ended_at: Date | null;
  host_id: string;
  requirements: ColumnType<unknown, string, string>;
  embed: ColumnType<unknown, string, string>;
  ping_role_id: string | null;
  dm_winners: boolean;
  seed: string;
  seed_hash: string;
  winner_ids: ColumnType<string[], string[] | undefined, string[]>;
  created_at: Date;
  workflow_started_at: Date | null;
  cancelled_at: Date | null;
  cancel_notified_at: Date | null;
  /** Who ends the giveaway at ends_at: its workflow's timer (runs from before the batch) or the every-second batch. */
  end_by: ColumnType<GiveawayEndBy, GiveawayEndBy | undefined, GiveawayEndBy>;
  close_notified_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface GiveawayEntriesTable {
  guild_id: string;
  giveaway_id: number;
  user_id: string;
  tickets: number;
  paid: number;
  entered_at: Date;
}

export interface GiveawayDrawsTable {
  guild_id: string;
  giveaway_id: number;
  draw_number: number;
  kind: 'end' | 'reroll';
  requested: number;
  winner_ids: string[];
  replaced_user_ids: string[];
  entrants: number;
  entries: number;
  checked_entrants: number;
  shortfall: number;
  algorithm: string;
  drawn_at: Date;
}

export interface GiveawayActionsTable {
  id: Generated<number>;
  guild_id: string;
  giveaway_id: number;
  type: 'post' | 'edit' | 'announce' | 'dm';
  status: 'queued' | 'done' | 'failed';
  draw_number: number | null;
  user_id: string | null;
  error: string | null;
  queued_at: Date;
  done_at: Date | null;
}
