import type { Kysely } from 'kysely';
import { lookUpCredential, type AuthenticationLookup } from '../../db/keys/apiKeys.js';
import type { Database } from '../../db/schema.js';
import { hashApiKey } from './keyMaterial.js';

/**
 * The presented key with its guild, and the failed authentications of the caller's address in the current
 * window, in one round trip (the hot path of every request). Only digests are compared, by an index lookup: a
 * caller cannot steer a digest's prefix, so the lookup's timing reveals nothing about stored keys.
 */
export function lookUpPresentedKey(
  db: Kysely<Database>,
  presented: string,
  address: { bucket: string; windowStart: Date },
): Promise<AuthenticationLookup> {
  return lookUpCredential(db, { hash: hashApiKey(presented), addressBucket: address.bucket, windowStart: address.windowStart });
}
