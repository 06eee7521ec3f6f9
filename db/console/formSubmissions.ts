import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface FormSubmissionKey {
  nonceHash: Buffer;
  sessionHash: Buffer;
}

/** Takes a form token for its session: true when this call took it, false when it was taken before. */
export async function claimFormSubmission(db: Kysely<Database>, key: FormSubmissionKey, at: Date): Promise<boolean> {
  const row = await db
    .insertInto('console_form_submissions')
    .values({ nonce_hash: key.nonceHash, session_hash: key.sessionHash, location: null, created_at: at })
    .onConflict((oc) => oc.column('nonce_hash').doNothing())
    .returning('nonce_hash')
    .executeTakeFirst();
  return row !== undefined;
}

/** A taken token's state: `location` once its change is done, null while under way; undefined when not taken. */
export async function findFormSubmission(db: Kysely<Database>, key: FormSubmissionKey): Promise<{ location: string | null } | undefined> {
  return db
    .selectFrom('console_form_submissions')
    .select('location')
    .where('nonce_hash', '=', key.nonceHash)
    .where('session_hash', '=', key.sessionHash)
    .executeTakeFirst();
}

export async function completeFormSubmission(db: Kysely<Database>, key: FormSubmissionKey, location: string): Promise<void> {
  await db.updateTable('console_form_submissions').set({ location }).where('nonce_hash', '=', key.nonceHash).where('session_hash', '=', key.sessionHash).execute();
}

/** Gives a token back after its change failed (nothing happened), so the same form can be sent again. */
export async function releaseFormSubmission(db: Kysely<Database>, key: FormSubmissionKey): Promise<void> {
  await db
    .deleteFrom('console_form_submissions')
    .where('nonce_hash', '=', key.nonceHash)
    .where('session_hash', '=', key.sessionHash)
    .where('location', 'is', null)
    .execute();
}
