import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface SealedFlash {
  iv: Buffer;
  sealed: Buffer;
}

/** Keeps a sealed flash for a session's result page; a newer one for the same page replaces it. */
export async function putFlash(db: Kysely<Database>, sessionHash: Buffer, path: string, flash: SealedFlash, expiresAt: Date): Promise<void> {
  await db
    .insertInto('console_flashes')
    .values({ session_hash: sessionHash, path, iv: flash.iv, sealed: flash.sealed, expires_at: expiresAt })
    .onConflict((oc) => oc.columns(['session_hash', 'path']).doUpdateSet({ iv: flash.iv, sealed: flash.sealed, expires_at: expiresAt }))
    .execute();
}

/** Takes a session's flash for a page once (deleting it); an expired one is deleted and not returned. */
export async function takeFlash(db: Kysely<Database>, sessionHash: Buffer, path: string, now: Date): Promise<SealedFlash | undefined> {
  const row = await db
    .deleteFrom('console_flashes')
    .where('session_hash', '=', sessionHash)
    .where('path', '=', path)
    .returning(['iv', 'sealed', 'expires_at'])
    .executeTakeFirst();
  return row && row.expires_at > now ? { iv: row.iv, sealed: row.sealed } : undefined;
}
