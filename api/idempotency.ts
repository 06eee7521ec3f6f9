import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import {
  deleteStaleIdempotencyRecord,
  findIdempotencyRecord,
  tryClaimIdempotencyKey,
  type IdempotencyClaim,
} from '../db/shared/idempotency.js';
import type { Database } from '../db/schema.js';
import type { Clock } from '../src/core/clock.js';
import { canonicalJson } from '../src/core/canonicalJson.js';
import { idempotencyKeyReused, invalidRequest, serviceUnavailable } from '../src/core/errors.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const KEY_PATTERN = /^[\x20-\x7e]{1,100}$/;
const RETENTION_MS = 24 * 60 * 60 * 1000;
/** A claim's holder that has not finished by then is presumed dead and its claim can be taken over. */
const LEASE_MS = 60_000;
/** How long a second request with the same key waits for the first to finish. */
const WAIT_MS = 15_000;

/** A replay carries the stored body as the JSON text that was sent the first time. */
export type IdempotencyOutcome = { kind: 'claimed'; claim: IdempotencyClaim } | { kind: 'replay'; status: number; body: string };

const headerIssue = (message: string) => invalidRequest([{ location: 'header', path: IDEMPOTENCY_HEADER, message }]);

/**
 * Reads and checks the header from its values as received (Node's `headersDistinct`: one entry per header
 * line); undefined when the request has none. A header sent without a value is not a missing header (Koa's
 * ctx.get answers '' for both): it is refused like any value outside 1 to 100 printable ASCII characters, as
 * is a header sent twice (joined, the two values would silently make a third key).
 */
export function readIdempotencyKey(values: readonly string[] | undefined): string | undefined {
  if (values === undefined || values.length === 0) return undefined;
  if (values.length > 1) throw headerIssue('must be given once');
  const key = values[0]!;
  if (!KEY_PATTERN.test(key)) throw headerIssue('must be 1 to 100 printable ASCII characters');
  return key;
}

export function requestFingerprint(method: string, path: string, body: unknown): Buffer {
  return createHash('sha256').update(`${method} ${path}\n${canonicalJson(body ?? null)}`).digest();
}

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
