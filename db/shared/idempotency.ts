import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface IdempotencyRecord {
  fingerprint: Buffer;
  state: 'processing' | 'done';
  responseStatus: number | null;
  /** The JSON text that was sent, byte for byte. */
  responseBody: string | null;
  lockedUntil: Date;
  expiresAt: Date;
}

export interface IdempotencyClaim {
  apiKeyId: number;
  key: string;
  fingerprint: Buffer;
}

/** Inserts a processing record; false when a record for this key already exists. */
export async function tryClaimIdempotencyKey(
  db: Kysely<Database>,
  claim: IdempotencyClaim,
  at: { now: Date; lockedUntil: Date; expiresAt: Date },
): Promise<boolean> {
  const result = await db
    .insertInto('idempotency_records')
    .values({
      api_key_id: claim.apiKeyId,
      idempotency_key: claim.key,
      fingerprint: claim.fingerprint,
      state: 'processing',
      response_status: null,
      response_body: null,
      locked_until: at.lockedUntil,
      created_at: at.now,
      expires_at: at.expiresAt,
    })
    .onConflict((oc) => oc.columns(['api_key_id', 'idempotency_key']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export async function findIdempotencyRecord(
  db: Kysely<Database>,
  apiKeyId: number,
  key: string,
): Promise<IdempotencyRecord | undefined> {
  const row = await db
    .selectFrom('idempotency_records')
    .selectAll()
    .where('api_key_id', '=', apiKeyId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  return (
    row && {
      fingerprint: row.fingerprint,
      state: row.state,
      responseStatus: row.response_status,
      responseBody: row.response_body,
      lockedUntil: row.locked_until,
      expiresAt: row.expires_at,
    }
  );
}

/** Stores the successful response (its body as the exact JSON text sent), in the transaction of the change it answers. */
export async function completeIdempotencyKey(
  trx: Kysely<Database>,
  claim: IdempotencyClaim,
  response: { status: number; body: string },
): Promise<void> {
  await trx
    .updateTable('idempotency_records')
    .set({ state: 'done', response_status: response.status, response_body: response.body })
    .where('api_key_id', '=', claim.apiKeyId)
    .where('idempotency_key', '=', claim.key)
    .execute();
}

/** Failed requests are not stored: the key is free again. */
export async function releaseIdempotencyKey(db: Kysely<Database>, claim: IdempotencyClaim): Promise<void> {
  await db
    .deleteFrom('idempotency_records')
    .where('api_key_id', '=', claim.apiKeyId)
    .where('idempotency_key', '=', claim.key)
    .where('state', '=', 'processing')
    .execute();
}

/** Removes the record if it expired, or if its processing holder stopped renewing (crashed). */
export async function deleteStaleIdempotencyRecord(db: Kysely<Database>, apiKeyId: number, key: string, now: Date): Promise<void> {
  await db
    .deleteFrom('idempotency_records')
    .where('api_key_id', '=', apiKeyId)
    .where('idempotency_key', '=', key)
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb.and([eb('state', '=', 'processing'), eb('locked_until', '<=', now)])]))
    .execute();
}

export async function purgeExpiredIdempotencyRecords(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await db.deleteFrom('idempotency_records').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
