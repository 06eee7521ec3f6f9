import type { Kysely } from 'kysely';

/**
 * The bot's review message of a submission: posted in the form's review channel when the submission is made,
 * and edited by the decision workflow. The channel is kept with the message, since the form's review channel
 * may change afterwards.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('application_submissions')
    .addColumn('review_channel_id', 'text')
    .addColumn('review_message_id', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('application_submissions').dropColumn('review_channel_id').dropColumn('review_message_id').execute();
}
