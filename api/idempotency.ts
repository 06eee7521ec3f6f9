// The Idempotency-Key header as HTTP carries it; claims, replays and stored responses are src/requests/idempotency.ts.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../src/core/canonicalJson.js';
import { invalidRequest } from '../src/core/errors.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const KEY_PATTERN = /^[\x20-\x7e]{1,100}$/;

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
