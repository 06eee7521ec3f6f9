// Idempotency-Key records (`idempotency_records`): a key claimed per API key while its request runs, the response
// stored with the write, answered again to a replay for 24 h. The header itself is the api's (api/idempotency.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import {
  completeIdempotencyKey,
  deleteStaleIdempotencyRecord,
  findIdempotencyRecord,
  releaseIdempotencyKey,
  tryClaimIdempotencyKey,
  type IdempotencyClaim,
} from '../../db/shared/idempotency.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../core/clock.js';
import { idempotencyKeyReused, serviceUnavailable } from '../core/errors.js';

const RETENTION_MS = 24 * 60 * 60 * 1000;
/** A claim's holder that has not finished by then is presumed dead and its claim can be taken over. */
const LEASE_MS = 60_000;
/** How long a second request with the same key waits for the first to finish. */
const WAIT_MS = 15_000;

/** A replay carries the stored body as the JSON text that was sent the first time. */
export type IdempotencyOutcome = { kind: 'claimed'; claim: IdempotencyClaim } | { kind: 'replay'; status: number; body: string };

/**
 * Claims the key for this request, or answers with the stored response. A request whose twin is still
 * running waits for it (spec rule 4); a different request under the same key is refused (rule 2).
 */
export async function claimOrReplay(
  deps: { db: Kysely<Database>; clock: Clock },
  claim: IdempotencyClaim,
): Promise<IdempotencyOutcome> {
  const deadline = performance.now() + WAIT_MS;
  for (let pause = 10; performance.now() < deadline; pause = Math.min(pause * 2, 200)) {
    const now = deps.clock.now();
    const claimed = await tryClaimIdempotencyKey(deps.db, claim, {
      now,
      lockedUntil: new Date(now.getTime() + LEASE_MS),
      expiresAt: new Date(now.getTime() + RETENTION_MS),
    });
    if (claimed) return { kind: 'claimed', claim };
    const record = await findIdempotencyRecord(deps.db, claim.apiKeyId, claim.key);
    if (!record) continue;
    if (record.expiresAt <= now || (record.state === 'processing' && record.lockedUntil <= now)) {
      await deleteStaleIdempotencyRecord(deps.db, claim.apiKeyId, claim.key, now);
      continue;
    }
    if (!record.fingerprint.equals(claim.fingerprint)) throw idempotencyKeyReused();
    if (record.state === 'done') return { kind: 'replay', status: record.responseStatus!, body: record.responseBody! };
    await sleep(pause);
  }
  throw serviceUnavailable(1);
}

/** Stores the response with the write, in the write's transaction: the claim is done and replays answer it. */
export const storeIdempotentResponse = (trx: Kysely<Database>, claim: IdempotencyClaim, response: { status: number; body: string }): Promise<void> =>
  completeIdempotencyKey(trx, claim, response);

/** Gives the key back after a failed request, so a retry with it runs again. */
export const releaseIdempotencyClaim = (db: Kysely<Database>, claim: IdempotencyClaim): Promise<void> => releaseIdempotencyKey(db, claim);
