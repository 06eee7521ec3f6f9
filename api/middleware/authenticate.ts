import type { Kysely } from 'kysely';
import { findCredential } from '../../db/apiKeys.js';
import { countHit, readHits } from '../../db/rateLimits.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../src/clock.js';
import { currentWindow } from '../../src/domain/fixedWindow.js';
import {
  apiKeyExpired,
  apiKeyRevoked,
  AppError,
  invalidApiKey,
  rateLimited,
  unauthorized,
} from '../../src/errors.js';
import { API_KEY_PATTERN, hashApiKey } from '../../src/keys/keyMaterial.js';
import type { AppContext, AppMiddleware } from '../context.js';

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Resolves the Bearer key on every request (no cache, so a revocation is effective at once on every
 * instance). Each 401 counts against the caller's IP address; past `failuresPerMinute` the address gets
 * 429 until the minute ends, before its key is even looked at.
 */
export function authenticate(deps: { db: Kysely<Database>; clock: Clock; failuresPerMinute: number }): AppMiddleware {
  const { db, clock, failuresPerMinute } = deps;
  return async (ctx, next) => {
    const window = currentWindow(clock.now());
    const bucket = `auth-failures:${ctx.ip}`;
    if ((await readHits(db, bucket, window.start)) >= failuresPerMinute) {
      throw rateLimited(window.secondsToReset, 'Too many failed authentications from this address.');
    }
    try {
      await resolveKey(ctx, db, clock);
    } catch (err) {
      if (err instanceof AppError && err.status === 401) await countHit(db, bucket, window.start);
      throw err;
    }
    await next();
  };
}

async function resolveKey(ctx: AppContext, db: Kysely<Database>, clock: Clock): Promise<void> {
  const match = BEARER.exec(ctx.get('Authorization'));
  if (!match) throw unauthorized();
  const presented = match[1]!;
  if (!API_KEY_PATTERN.test(presented)) throw invalidApiKey();
  // Only digests are compared, by an index lookup: a caller cannot steer a digest's prefix, so the
  // lookup's timing reveals nothing about stored keys.
  const credential = await findCredential(db, hashApiKey(presented));
  if (!credential) throw invalidApiKey();
  const { apiKey, guild } = credential;
  if (apiKey.revokedAt) throw apiKeyRevoked();
  if (apiKey.expiresAt && apiKey.expiresAt <= clock.now()) throw apiKeyExpired();
  ctx.state.apiKey = apiKey;
  ctx.state.guild = guild;
}
