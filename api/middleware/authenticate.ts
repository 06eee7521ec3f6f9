import type { Kysely } from 'kysely';
import type { ApiKeyRecord } from '../../db/keys/apiKeys.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../src/core/clock.js';
import { currentWindow, type WindowPosition } from '../../src/core/fixedWindow.js';
import { apiKeyExpired, apiKeyRevoked, AppError, invalidApiKey, rateLimited, unauthorized } from '../../src/core/errors.js';
import { lookUpKeyDigest } from '../../src/keys/credentials.js';
import { API_KEY_PATTERN, hashApiKeyBase64 } from '../../src/keys/keyMaterial.js';
import { countWindowHit } from '../../src/requests/rateLimitWindows.js';
import type { AppContext, AppMiddleware } from '../context.js';
import { isDependencyUnavailable } from '../../src/core/dependencyErrors.js';
import type { KeyHitCounter } from '../keyHitCounter.js';
import type { Credential, CredentialCache } from '../../src/keys/credentialCache.js';

const BEARER = /^Bearer +(\S+) *$/i;

interface AuthenticateDeps {
  db: Kysely<Database>;
  clock: Clock;
  keyHits: KeyHitCounter;
  failuresPerMinute: number;
  credentials?: CredentialCache;
}

/**
 * Resolves the Bearer key on every request: from the credential cache when it holds the key (it holds usable keys
 * only, and empties itself on every key or guild change PostgreSQL announces: src/keys/credentialCache.ts), otherwise
 * from PostgreSQL. A cached key that has expired meanwhile goes the PostgreSQL way, so its refusal is counted as
 * any other. Each 401 counts against the caller's IP address; past `failuresPerMinute` the address's failures
 * get 429 instead of 401 until the minute ends. The throttle refuses failures only: a usable key goes through
 * whatever its address did (callers behind one NAT or proxy must not lock each other out with a bad key), and
 * is counted in the key's own rate-limit window (see rateLimit.ts).
 */
export function authenticate(deps: AuthenticateDeps): AppMiddleware {
  const { db, clock, keyHits, failuresPerMinute } = deps;
  return async (ctx, next) => {
    const now = clock.now();
    const window = currentWindow(now);
    try {
      // Every request passes here: the cached way builds nothing for the refusals (their bucket, their 429).
      const digest = presentedDigest(ctx);
      const { apiKey, guild } = usableCached(deps.credentials, digest, now) ?? (await lookUp(ctx, deps, digest, now, window));
      ctx.state.apiKey = apiKey;
      ctx.state.guild = guild;
      ctx.state.keyHits = await keyHits.hit(`key:${apiKey.id}`, window.start);
    } catch (err) {
      if (err instanceof AppError && err.status === 401) {
        if ((await countFailure(db, failureBucket(ctx), window.start)) > failuresPerMinute) throw throttled(window);
      }
      throw err;
    }
    await next();
  };
}

const failureBucket = (ctx: AppContext) => `auth-failures:${ctx.ip}`;
const throttled = (window: WindowPosition) => rateLimited(window.secondsToReset, 'Too many failed authentications from this address.');

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

/** The presented key's digest; a missing or malformed key is refused before any lookup. */
function presentedDigest(ctx: AppContext): string {
  const match = BEARER.exec(ctx.get('Authorization'));
  if (!match) throw unauthorized();
  const presented = match[1]!;
  if (!API_KEY_PATTERN.test(presented)) throw invalidApiKey();
  return hashApiKeyBase64(presented);
}

/** The cached credential of this digest, unless it has expired meanwhile (then PostgreSQL's answer counts). */
function usableCached(credentials: CredentialCache | undefined, digest: string, now: Date): Credential | undefined {
  const cached = credentials?.get(digest);
  return cached && !refusalOf(cached.apiKey, now) ? cached : undefined;
}

/** The key from PostgreSQL, refused as it stands there, and remembered when usable and nothing changed meanwhile. */
async function lookUp(ctx: AppContext, deps: AuthenticateDeps, digest: string, now: Date, window: WindowPosition): Promise<Credential> {
  const { credentials } = deps;
  const generation = credentials?.generation;
  const lookup = await lookUpKeyDigest(deps.db, digest, { bucket: failureBucket(ctx), windowStart: window.start });
  const refusal = refusalOf(lookup.credential?.apiKey, now);
  if (refusal) {
    // A throttled address's failure is answered 429 and not counted again (the 401 would have been).
    if (lookup.addressFailures >= deps.failuresPerMinute) throw throttled(window);
    throw refusal;
  }
  if (generation !== undefined) credentials!.remember(digest, lookup.credential!, generation);
  return lookup.credential!;
}

/** Why a looked-up key cannot be used (unknown, revoked, expired); undefined for a usable key. */
function refusalOf(apiKey: ApiKeyRecord | undefined, now: Date): AppError | undefined {
  if (!apiKey) return invalidApiKey();
  if (apiKey.revokedAt) return apiKeyRevoked();
  if (apiKey.expiresAt && apiKey.expiresAt <= now) return apiKeyExpired();
  return undefined;
}
