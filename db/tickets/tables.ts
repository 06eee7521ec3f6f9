import type { ColumnType } from 'kysely';

export interface TicketSettingsTable {
  guild_id: string;
  transcripts: ColumnType<boolean, boolean | undefined, boolean>;
  last_ticket_no: ColumnType<number, number | undefined, number>;
  log_channel_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface TicketsTable {
  guild_id: string;
  ticket_no: number;
  status: 'open' | 'pending' | 'closed';
  user_id: string;
  panel_id: number | null;
  panel_title: string | null;
  subject: string | null;
  source: 'panel' | 'command' | 'context_menu' | 'dashboard' | null;
  is_thread: boolean;
  channel_id: string | null;
  claimed_by: string | null;
  opened_at: Date;
  last_message_at: Date | null;
  first_response_at: Date | null;
  first_response_by: string | null;
  user_messages: ColumnType<number, number | undefined, number>;
  staff_messages: ColumnType<number, number | undefined, number>;
  rating: number | null;
  answers: ColumnType<unknown, string, string>;
  members: ColumnType<unknown, string, string>;
  close_request: ColumnType<unknown, string | null, string | null>;
  closed_at: Date | null;
  closed_by: string | null;
  close_reason: string | null;
  close_type: 'manual' | 'autoclose' | 'user_leave' | 'request' | 'channel_deleted' | 'thread_archived' | null;
  transcript_generated_at: Date | null;
  transcript_message_content: boolean | null;
  transcript_total: number | null;
  transcript_users: ColumnType<unknown, string | null, string | null>;
  close_applying: ColumnType<boolean, boolean | undefined, boolean>;
  close_workflow_started_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  close_failed_actions: ColumnType<unknown, string | null | undefined, string | null>;
}

export interface TicketMessagesTable {
  guild_id: string;
  ticket_no: number;
  /** numeric(20,0): the snowflake, ordered as a number; read back as a string. */
  message_id: string;
  author_id: string | null;
  content: string;
  created_at: Date;
  edited_at: Date | null;
  system: ColumnType<boolean, boolean | undefined, boolean>;
  reply_to: string | null;
  embeds: ColumnType<unknown, string | null, string | null>;
  attachments: ColumnType<unknown, string | null, string | null>;
  stickers: ColumnType<unknown, string | null, string | null>;
}

/** A ticket panel the service posts: its settings and the message it posted (null until posted). */
export interface TicketPanelsTable {
  guild_id: string;
  panel_id: number;
  channel_id: string;
  title: string | null;
  text: string;
  button_label: string;
  category_id: string | null;
  staff_role_ids: string[];
  message_channel_id: string | null;
  message_id: string | null;
  posts: ColumnType<number, number | undefined, number>;
  updated_at: Date;
}
