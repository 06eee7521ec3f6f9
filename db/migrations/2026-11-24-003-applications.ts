import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('application_forms')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    /** Console order: ascending, then id. */
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('open', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('opens_at', 'timestamptz')
    .addColumn('closes_at', 'timestamptz')
    .addColumn('questions', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'`))
    /** Roles given to an accepted applicant. */
    .addColumn('accept_role_ids', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'`))
    /** Roles taken from an accepted applicant (an "Applicant" role, for example). */
    .addColumn('remove_role_ids', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'`))
    /** How long a denied applicant waits before applying to this form again. */
    .addColumn('reapply_cooldown_seconds', 'integer', (c) => c.notNull().defaultTo(7 * 86_400))
    /** Where accepted applicants are announced; null = no announcement. */
    .addColumn('announce_channel_id', 'text')
    /** Where staff review submissions; null = no review message. */
    .addColumn('review_channel_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('application_forms_guild_idx').on('application_forms').columns(['guild_id', 'position', 'id']).execute();

  await db.schema
    .createTable('application_submissions')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    /** Null once the form is deleted; form_title keeps its title. */
    .addColumn('form_id', 'integer')
    .addColumn('form_title', 'text')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('votes_up', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('votes_down', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('answers', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'`))
    .addColumn('applicant', 'jsonb', (c) => c.notNull())
    .addColumn('submitted_at', 'timestamptz', (c) => c.notNull())
    .addColumn('decided_at', 'timestamptz')
    .addColumn('decided_by', 'text')
    .addColumn('reason', 'text')
    .addColumn('decided_with_api_key_id', 'integer')
    .addColumn('reapply_after', 'timestamptz')
    .addColumn('applying', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('failed_actions', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'`))
    .addColumn('workflow_started_at', 'timestamptz')
    .addPrimaryKeyConstraint('application_submissions_pk', ['guild_id', 'number'])
    .execute();
  await db.schema
    .createIndex('application_submissions_user_idx')
    .on('application_submissions')
    .columns(['guild_id', 'user_id', 'number'])
    .execute();
  await db.schema
    .createIndex('application_submissions_form_idx')
    .on('application_submissions')
    .columns(['guild_id', 'form_id', 'number'])
    .execute();
  await db.schema
    .createIndex('application_submissions_unstarted_idx')
    .on('application_submissions')
    .column('decided_at')
    .where(sql<boolean>`applying AND workflow_started_at IS NULL`)
    .execute();

  /** Staff votes on a submission, one per voter (a second vote replaces the first); votes_up/down count them. */
  await db.schema
    .createTable('application_votes')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('submission_number', 'integer', (c) => c.notNull())
    .addColumn('voter_id', 'text', (c) => c.notNull())
    .addColumn('vote', 'text', (c) => c.notNull())
    .addColumn('voted_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('application_votes_pk', ['guild_id', 'submission_number', 'voter_id'])
    .addForeignKeyConstraint('application_votes_submission_fk', ['guild_id', 'submission_number'], 'application_submissions', ['guild_id', 'number'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['application_votes', 'application_submissions', 'application_forms']) await db.schema.dropTable(table).execute();
}
