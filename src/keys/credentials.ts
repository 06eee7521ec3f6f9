import type { Kysely } from 'kysely';
import { lookUpCredential, type AuthenticationLookup } from '../../db/keys/apiKeys.js';
import type { Database } from '../../db/schema.js';

/**
 * The key of this digest (base64, `hashApiKeyBase64`) with its guild, and the failed authentications of the caller's
 * address in the current window, in one round trip (the hot path of every request the credential cache cannot
 * answer). Only digests are compared, by an index lookup: a caller cannot steer a digest's prefix, so the lookup's
 * timing reveals nothing about stored keys.
 */
export function lookUpKeyDigest(
  db: Kysely<Database>,
  digest: string,
  address: { bucket: string; windowStart: Date },
): Promise<AuthenticationLookup> {
  return lookUpCredential(db, { hash: Buffer.from(digest, 'base64'), addressBucket: address.bucket, windowStart: address.windowStart });
}
