import type { ColumnType, Generated } from 'kysely';

export type SubmissionStatusColumn = 'pending' | 'interview' | 'hold' | 'accepted' | 'denied' | 'withdrawn';

export interface ApplicationFormsTable {
  id: Generated<number>;
  guild_id: string;
  position: number;
  title: string;
  description: string;
  open: Generated<boolean>;
  opens_at: Date | null;
  closes_at: Date | null;
  questions: ColumnType<unknown, string, string>;
  accept_role_ids: ColumnType<unknown, string, string>;
  remove_role_ids: ColumnType<unknown, string, string>;
  reapply_cooldown_seconds: Generated<number>;
  announce_channel_id: string | null;
  review_channel_id: string | null;
  created_at: Date;
}

export interface ApplicationSubmissionsTable {
  guild_id: string;
  number: number;
  form_id: number | null;
  form_title: string | null;
  user_id: string;
  status: SubmissionStatusColumn;
  votes_up: Generated<number>;
  votes_down: Generated<number>;
  answers: ColumnType<unknown, string, never>;
  applicant: ColumnType<unknown, string, never>;
  submitted_at: Date;
  decided_at: Date | null;
  decided_by: string | null;
  reason: string | null;
  decided_with_api_key_id: number | null;
  reapply_after: Date | null;
  applying: Generated<boolean>;
  failed_actions: ColumnType<unknown, string | undefined, string>;
  workflow_started_at: Date | null;
  review_channel_id: ColumnType<string | null, string | null | undefined, string | null>;
  review_message_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ApplicationVotesTable {
  guild_id: string;
  submission_number: number;
  voter_id: string;
  vote: 'up' | 'down';
  voted_at: Date;
}

/** An application panel the service posts: one apply button per form, and the message it posted (null until posted). */
export interface ApplicationPanelsTable {
  guild_id: string;
  panel_id: number;
  channel_id: string;
  text: string;
  /** Null: every form of the server, in console order. */
  form_ids: number[] | null;
  message_channel_id: string | null;
  message_id: string | null;
  posts: ColumnType<number, number | undefined, number>;
  updated_at: Date;
}
