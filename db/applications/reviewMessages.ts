import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface ReviewMessageRef {
  channelId: string;
  messageId: string;
}

/** Where the bot's review message of a submission is; undefined when none was posted. */
export async function findReviewMessage(db: Kysely<Database>, guildId: string, number: number): Promise<ReviewMessageRef | undefined> {
  const row = await db
    .selectFrom('application_submissions')
    .select(['review_channel_id', 'review_message_id'])
    .where('guild_id', '=', guildId)
    .where('number', '=', number)
    .executeTakeFirst();
  if (!row?.review_channel_id || !row.review_message_id) return undefined;
  return { channelId: row.review_channel_id, messageId: row.review_message_id };
}

/** Keeps the first review message stored (a retried post returns the same message anyway). */
export async function storeReviewMessage(db: Kysely<Database>, guildId: string, number: number, ref: ReviewMessageRef): Promise<void> {
  await db
    .updateTable('application_submissions')
    .set({ review_channel_id: ref.channelId, review_message_id: ref.messageId })
    .where('guild_id', '=', guildId)
    .where('number', '=', number)
    .where('review_message_id', 'is', null)
    .execute();
}
