import type { Kysely } from 'kysely';
import type { ApiKeyRecord } from '../../db/keys/apiKeys.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../src/core/clock.js';
import { currentWindow, type WindowPosition } from '../../src/core/fixedWindow.js';
import { apiKeyExpired, apiKeyRevoked, AppError, invalidApiKey, rateLimited, unauthorized } from '../../src/core/errors.js';
import { lookUpKeyDigest, presentedKeyDigest } from '../../src/keys/credentials.js';
import { API_KEY_PATTERN } from '../../src/keys/keyMaterial.js';
import { countWindowHit } from '../../src/requests/rateLimitWindows.js';
import type { AppContext, AppMiddleware } from '../context.js';
import { isDependencyUnavailable } from '../../src/core/dependencyErrors.js';
import type { KeyHitCounter } from '../keyHitCounter.js';
import type { Credential, CredentialCache } from '../../src/keys/credentialCache.js';

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Resolves the Bearer key on every request: from the credential cache when it holds the key (it holds usable keys
 * only, and empties itself on every key or guild change PostgreSQL announces: src/keys/credentialCache.ts), otherwise
 * from PostgreSQL. A cached key that has expired meanwhile goes the PostgreSQL way, so its refusal is counted as
 * any other. Each 401 counts against the caller's IP address; past `failuresPerMinute` the address's failures
 * get 429 instead of 401 until the minute ends. The throttle refuses failures only: a usable key goes through
 * whatever its address did (callers behind one NAT or proxy must not lock each other out with a bad key), and
 * is counted in the key's own rate-limit window (see rateLimit.ts).
 */
export function authenticate(deps: {
  db: Kysely<Database>;
  clock: Clock;
  keyHits: KeyHitCounter;
  failuresPerMinute: number;
  credentials?: CredentialCache;
}): AppMiddleware {
  const { db, clock, keyHits, failuresPerMinute, credentials } = deps;
  return async (ctx, next) => {
    const now = clock.now();
    const window = currentWindow(now);
    const bucket = `auth-failures:${ctx.ip}`;
    const throttled = () => rateLimited(window.secondsToReset, 'Too many failed authentications from this address.');
    try {
      await resolveKey(ctx, { db, keyHits, now, window, bucket, failuresPerMinute, throttled, credentials });
    } catch (err) {
      if (err instanceof AppError && err.status === 401) {
        if ((await countFailure(db, bucket, window.start)) > failuresPerMinute) throw throttled();
      }
      throw err;
    }
    await next();
  };
}

/**
 * Counts a failed authentication against the address. A refusal that needed no lookup (missing header,
 * malformed key) stays a 401 while PostgreSQL is down: the caller must fix its request, not retry it.
 */
async function countFailure(db: Kysely<Database>, bucket: string, windowStart: Date): Promise<number> {
  try {
    return await countWindowHit(db, bucket, windowStart);
  } catch (err) {
    if (isDependencyUnavailable(err)) return 0;
    throw err;
  }
}

interface ResolveInput {
  db: Kysely<Database>;
  keyHits: KeyHitCounter;
  now: Date;
  window: WindowPosition;
  bucket: string;
  failuresPerMinute: number;
  throttled(): AppError;
  credentials: CredentialCache | undefined;
}

async function resolveKey(ctx: AppContext, input: ResolveInput): Promise<void> {
  const match = BEARER.exec(ctx.get('Authorization'));
  if (!match) throw unauthorized();
  const presented = match[1]!;
  if (!API_KEY_PATTERN.test(presented)) throw invalidApiKey();
  const digest = presentedKeyDigest(presented);
  const cacheKey = digest.toString('base64');
  const cached = input.credentials?.get(cacheKey);
  const { apiKey, guild } = cached && !refusalOf(cached.apiKey, input.now) ? cached : await lookUp(input, digest, cacheKey);
  ctx.state.apiKey = apiKey;
  ctx.state.guild = guild;
  ctx.state.keyHits = await input.keyHits.hit(`key:${apiKey.id}`, input.window.start);
}

/** The key from PostgreSQL, refused as it stands there, and remembered when usable and nothing changed meanwhile. */
async function lookUp(input: ResolveInput, digest: Buffer, cacheKey: string): Promise<Credential> {
  const generation = input.credentials?.generation;
  const lookup = await lookUpKeyDigest(input.db, digest, { bucket: input.bucket, windowStart: input.window.start });
  const refusal = refusalOf(lookup.credential?.apiKey, input.now);
  if (refusal) {
    // A throttled address's failure is answered 429 and not counted again (the 401 would have been).
    if (lookup.addressFailures >= input.failuresPerMinute) throw input.throttled();
    throw refusal;
  }
  if (generation !== undefined) input.credentials!.remember(cacheKey, lookup.credential!, generation);
  return lookup.credential!;
}

/** Why a looked-up key cannot be used (unknown, revoked, expired); undefined for a usable key. */
function refusalOf(apiKey: ApiKeyRecord | undefined, now: Date): AppError | undefined {
  if (!apiKey) return invalidApiKey();
  if (apiKey.revokedAt) return apiKeyRevoked();
  if (apiKey.expiresAt && apiKey.expiresAt <= now) return apiKeyExpired();
  return undefined;
}
