import type { Kysely } from 'kysely';
import type Koa from 'koa';
import type { ApiKeyRecord } from '../db/keys/apiKeys.js';
import type { GuildRecord } from '../db/guild/guilds.js';
import type { Database } from '../db/schema.js';
import type { Clock } from '../src/core/clock.js';
import type { Config } from '../src/core/config.js';
import type { Logger } from '../src/core/logger.js';
import type { MemberCache } from '../src/core/memberCache.js';
import type { Platform } from '../src/core/platform.js';
import type { TemporalGateway } from '../src/core/temporal/gateway.js';
import type { KeyHitCounter } from './keyHitCounter.js';
import type { CredentialCache } from '../src/keys/credentialCache.js';

/** Everything the HTTP layer needs, built by an entrypoint (or a test) and passed to createApp. */
export interface AppDeps {
  config: Config;
  db: Kysely<Database>;
  platform: Platform;
  memberCache: MemberCache;
  clock: Clock;
  logger: Logger;
  temporal: TemporalGateway;
  /** This instance's share of the per-key request counts; flushed when the server closes. */
  keyHits: KeyHitCounter;
  /** Usable keys held in memory between changes (CREDENTIAL_CACHE_ENTRIES); without it every request looks its key up. */
  credentials?: CredentialCache;
}

/** What the middleware chain learns about a request, in the order it learns it. */
export interface RequestState {
  requestId: string;
  apiKey?: ApiKeyRecord;
  guild?: GuildRecord;
  /** The key's requests in the current rate-limit window, this one included. */
  keyHits?: number;
  rawBody?: Buffer;
  body?: unknown;
}

export type AppContext = Koa.ParameterizedContext<RequestState>;
export type AppMiddleware = Koa.Middleware<RequestState>;
/** A check of the request that refuses by throwing; the gates of a route run one after another in one step. */
export type AppGate = (ctx: AppContext) => void;

/** The authenticated caller, as handlers see it. */
export interface Caller {
  apiKey: ApiKeyRecord;
  guild: GuildRecord;
  requestId: string;
}
