import { z } from 'zod';
import type { Plan } from './plans.js';

const booleanFlag = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

const DISCORD_TOKEN_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Every setting the processes read from the environment, parsed once at boot. */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Public base URL printed by the dev launcher; defaults to http://HOST:PORT/api/v1. */
  PUBLIC_BASE_URL: z.url().optional(),
  /** Trust X-Forwarded-For (set when the api runs behind a load balancer). */
  TRUST_PROXY: booleanFlag.default(false),
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(20),
  TEMPORAL_ADDRESS: z.string().optional(),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('community-bot'),
  TEMPORAL_TLS: booleanFlag.default(false),
  TEMPORAL_TLS_CERT_PATH: z.string().optional(),
  TEMPORAL_TLS_KEY_PATH: z.string().optional(),
  /** PEM of the CA that signed the frontend's certificate, for a cluster with a private CA; unset: the system's roots. */
  TEMPORAL_TLS_CA_PATH: z.string().optional(),
  TEMPORAL_API_KEY: z.string().optional(),
  /** Open runs a worker keeps in memory; unset: the SDK's default, about 600 per GB of heap. */
  TEMPORAL_MAX_CACHED_WORKFLOWS: z.coerce.number().int().min(0).optional(),
  /**
   * Activities a worker runs at once. The SDK's default, 100, lets a burst of starts and posts grow the heap (and,
   * V8 keeping what it grew, the RSS) past what a pool of 20 connections can serve anyway: docs/performance.md.
   */
  TEMPORAL_MAX_CONCURRENT_ACTIVITIES: z.coerce.number().int().min(1).default(20),
  /** A workflow bundle written by `npm run bundle:workflows`; unset, the worker bundles the workflows as it starts. */
  WORKFLOW_BUNDLE_PATH: z.string().optional(),
  /** Port of the embedded PostgreSQL that `npm run dev` starts when DATABASE_URL is not set. */
  DEV_POSTGRES_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  /** Where the Temporal CLI and the time-skipping test server are, when not on PATH. */
  TEMPORAL_CLI_PATH: z.string().optional(),
  TEMPORAL_TEST_SERVER_PATH: z.string().optional(),
  /** Searched for those binaries after the two paths above. */
  PATH: z.string().default(''),
  /**
   * The real Temporal server and its temporal-sql-tool, for `npm run stack:prod` and `npm run bench -- --target prod`
   * only; unset: the ones built into ~/.cache/community-bot (built there when missing).
   */
  TEMPORAL_SERVER_PATH: z.string().optional(),
  TEMPORAL_SQL_TOOL_PATH: z.string().optional(),
  /** History shards of that server's cluster (fixed when its database is first set up). */
  TEMPORAL_HISTORY_SHARDS: z.coerce.number().int().min(1).max(16_384).default(4),
  /**
   * How a response is checked against its documented schema: `parse` runs the whole schema, `shape` a compiled
   * check of fields and primitive types (api/responseCheck.ts). Unset: `shape` in production, `parse` elsewhere.
   */
  RESPONSE_CHECK: z.enum(['parse', 'shape']).optional(),
  /** Largest accepted request body in bytes (413 PAYLOAD_TOO_LARGE above it). */
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(10_485_760).default(65_536),
  /** Requests per key per minute by plan (spec: 60 Free, 600 Pro); raised only for load tests. */
  RATE_LIMIT_FREE_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  RATE_LIMIT_PRO_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** How long an api instance may hold per-key request counts before writing them (api/keyHitCounter.ts). */
  RATE_LIMIT_FLUSH_MS: z.coerce.number().int().min(1).max(1000).default(50),
  /** Failed authentications per IP address per minute before 429 RATE_LIMITED. */
  AUTH_FAILURE_LIMIT: z.coerce.number().int().min(1).default(20),
  /**
   * Usable API keys (with their guild) an api instance keeps in memory, emptied on every key or guild change that
   * PostgreSQL announces (src/keys/credentialCache.ts); 0 looks every request's key up in PostgreSQL.
   */
  CREDENTIAL_CACHE_ENTRIES: z.coerce.number().int().min(0).max(1_000_000).default(10_000),
  /** How often that cache compares the change sequence with the last announcement it heard. */
  CREDENTIAL_VERSION_CHECK_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
  /** How long the Server member endpoint may serve a cached member (spec: up to 5 minutes). */
  MEMBER_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(300),
  /**
   * Local development and tests only: webhook endpoints may use http:// and loopback addresses. Unset, it is
   * false, except under `npm run dev` and for the admin CLI on the dev database (process/dev/localWebhooks.ts);
   * true is refused with NODE_ENV=production.
   */
  WEBHOOK_ALLOW_INSECURE_LOCAL: booleanFlag.optional(),
  /** Where bot-side effects land: `local` (platform_* tables) or `discord` (Discord's REST API). */
  PLATFORM: z.enum(['local', 'discord']).default('local'),
  /** The bot's token (a secret: never logged, never echoed in a validation message). */
  DISCORD_TOKEN: z.string().optional(),
  /** Discord's API root without the version; requests go to `${DISCORD_API_URL}/v10/...` (a local fake in tests). */
  DISCORD_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://discord.com/api' }).default('https://discord.com/api'),
  /** The worker's own HTTP port: /livez, /readyz, /metrics (on HOST). */
  WORKER_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  /** The bot's own HTTP port: /livez, /readyz (its shards' state), /metrics (on HOST). */
  BOT_PORT: z.coerce.number().int().min(0).max(65535).default(3002),
  /** Shards of the whole bot (every bot process alike); unset: the count Discord recommends (GET /gateway/bot). */
  DISCORD_SHARD_COUNT: z.coerce.number().int().min(1).max(100_000).optional(),
  /** The shards this bot process runs: `first-last` (`0-3`) or a list (`0,2,5`); unset: all of them. */
  DISCORD_SHARD_IDS: z
    .string()
    .regex(/^(\d+-\d+|\d+(,\d+)*)$/, 'must be a range such as 0-3 or a list such as 0,2,5')
    .optional(),
  /** How long the api lets in-flight requests finish after SIGTERM before it cuts them. */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(60_000).default(10_000),
  /**
   * After SIGTERM the worker lets running activities finish for the grace time, then cancels them, and gives up
   * at the force time (the SDK's default grace of 0 cancels them at once). Both stay under the 15 s bound of a
   * stop step (process/entrypoints/shutdown.ts).
   */
  WORKER_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(14_000).default(10_000),
  WORKER_SHUTDOWN_FORCE_MS: z.coerce.number().int().min(0).max(14_000).default(13_000),
  /** The Temporal SDK's own Prometheus listener of the worker (on HOST); unset: not served. */
  TEMPORAL_METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Temporal UI's root, for the console's links to a delivery's run (default: the dev server's UI). */
  TEMPORAL_UI_URL: z.url({ protocol: /^https?$/ }).default('http://localhost:8233'),
  /** A console session ends after this long without a request, and in any case this long after sign-in. */
  CONSOLE_SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
  CONSOLE_SESSION_ABSOLUTE_HOURS: z.coerce.number().int().min(1).max(168).default(12),
  /** Console sign-in attempts per client address per minute before 429. */
  CONSOLE_SIGN_IN_LIMIT: z.coerce.number().int().min(1).default(10),
  /** The Discord application of the console's sign-in (OAuth2, discord mode): id, secret and registered redirect URI. */
  DISCORD_CLIENT_ID: z.string().regex(/^\d{17,20}$/, 'must be the application id (17 to 20 digits)').optional(),
  /** A secret: never logged, never echoed in a validation message. */
  DISCORD_CLIENT_SECRET: z.string().min(1).optional(),
  /** The console's callback as registered in the Developer Portal: https://<api host>/console/oauth/callback. */
  CONSOLE_REDIRECT_URI: z.url({ protocol: /^https?$/ }).optional(),
  /** Discord's authorization page (a local fake in tests). */
  DISCORD_OAUTH_AUTHORIZE_URL: z.url({ protocol: /^https?$/ }).default('https://discord.com/oauth2/authorize'),
}).superRefine((e, ctx) => {
  // Half a client certificate would silently connect without one, and mutual TLS would fail far from the cause.
  if (Boolean(e.TEMPORAL_TLS_CERT_PATH) !== Boolean(e.TEMPORAL_TLS_KEY_PATH)) {
    const missing = e.TEMPORAL_TLS_CERT_PATH ? 'TEMPORAL_TLS_KEY_PATH' : 'TEMPORAL_TLS_CERT_PATH';
    ctx.addIssue({ code: 'custom', path: [missing], message: 'must be set too: mutual TLS needs both the client certificate and its key' });
  }
  if (e.PLATFORM === 'discord') {
    // A bot token is three dot-separated base64url parts; the message never repeats what was given.
    if (!e.DISCORD_TOKEN) ctx.addIssue({ code: 'custom', path: ['DISCORD_TOKEN'], message: 'must be set with PLATFORM=discord (the bot token from the Developer Portal)' });
    else if (!DISCORD_TOKEN_SHAPE.test(e.DISCORD_TOKEN)) {
      ctx.addIssue({ code: 'custom', path: ['DISCORD_TOKEN'], message: 'is not a bot token (three dot-separated parts, without the "Bot " prefix)' });
    }
  }
  const oauth = [e.DISCORD_CLIENT_ID, e.DISCORD_CLIENT_SECRET, e.CONSOLE_REDIRECT_URI];
  if (oauth.some(Boolean) && !oauth.every(Boolean)) {
    ctx.addIssue({
      code: 'custom',
      path: ['DISCORD_CLIENT_ID'],
      message: "DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET and CONSOLE_REDIRECT_URI are set together (the console's Discord sign-in needs all three)",
    });
  }
  const shards = e.DISCORD_SHARD_IDS === undefined ? undefined : shardIdsOf(e.DISCORD_SHARD_IDS);
  if (shards && 'start' in shards && shards.start > shards.end) ctx.addIssue({ code: 'custom', path: ['DISCORD_SHARD_IDS'], message: 'must be a range whose first shard is not after its last' });
  const highest = shards === undefined ? undefined : 'end' in shards ? shards.end : Math.max(...shards);
  if (highest !== undefined && e.DISCORD_SHARD_COUNT !== undefined && highest >= e.DISCORD_SHARD_COUNT) {
    ctx.addIssue({ code: 'custom', path: ['DISCORD_SHARD_IDS'], message: `must name shards below DISCORD_SHARD_COUNT (${e.DISCORD_SHARD_COUNT}); shard ids start at 0` });
  }
  if (e.NODE_ENV === 'production' && e.WEBHOOK_ALLOW_INSECURE_LOCAL === true) {
    ctx.addIssue({
      code: 'custom',
      path: ['WEBHOOK_ALLOW_INSECURE_LOCAL'],
      message:
        'must not be true with NODE_ENV=production: production webhook endpoints are public https:// URLs ' +
        '(unset it, or set NODE_ENV=development for local receivers)',
    });
  }
});

/** A bot process's shards: a range (both ends included) or a list. */
export type ShardIds = Readonly<{ start: number; end: number }> | readonly number[];

function shardIdsOf(value: string): ShardIds {
  const range = /^(\d+)-(\d+)$/.exec(value);
  return range ? { start: Number(range[1]), end: Number(range[2]) } : value.split(',').map(Number);
}

export type Config = Readonly<{
  env: 'development' | 'test' | 'production';
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  http: Readonly<{ host: string; port: number; publicBaseUrl?: string; trustProxy: boolean; bodyLimitBytes: number; responseCheck: 'parse' | 'shape' }>;
  database: Readonly<{ url?: string; poolMax: number }>;
  temporal: Readonly<{
    address?: string;
    namespace: string;
    taskQueue: string;
    tls: boolean;
    tlsCertPath?: string;
    tlsKeyPath?: string;
    tlsCaPath?: string;
    apiKey?: string;
    maxCachedWorkflows?: number;
    maxConcurrentActivities: number;
    workflowBundlePath?: string;
    cliPath?: string;
    testServerPath?: string;
    serverPath?: string;
    sqlToolPath?: string;
    historyShards: number;
    /** The process's PATH, where the Temporal binaries are looked for. */
    binarySearchPath: string;
  }>;
  dev: Readonly<{ postgresPort: number }>;
  webhooks: Readonly<{
    allowInsecureLocal: boolean;
    /** WEBHOOK_ALLOW_INSECURE_LOCAL as set; undefined when unset (dev then allows local receivers). */
    allowInsecureLocalSetting: boolean | undefined;
  }>;
  platform: Readonly<{ kind: 'local' } | { kind: 'discord'; token: string; apiUrl: string }>;
  bot: Readonly<{ port: number; shardCount?: number; shardIds?: ShardIds }>;
  ops: Readonly<{
    workerPort: number;
    drainMs: number;
    workerShutdownGraceMs: number;
    workerShutdownForceMs: number;
    temporalMetricsPort?: number;
  }>;
  console: Readonly<{
    sessionIdleMinutes: number;
    sessionAbsoluteHours: number;
    signInPerMinute: number;
    temporalUiUrl: string;
    /** Set when the console's Discord sign-in is configured (used with PLATFORM=discord). */
    discordOAuth?: Readonly<{ clientId: string; clientSecret: string; redirectUri: string; authorizeUrl: string }>;
  }>;
  limits: Readonly<{
    authFailuresPerMinute: number;
    memberCacheSeconds: number;
    credentialCacheEntries: number;
    credentialVersionCheckMs: number;
    requestsPerMinute: Readonly<Record<Plan, number>>;
    rateLimitFlushMs: number;
  }>;
}>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return Object.freeze({
    env: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    http: Object.freeze({
      host: e.HOST,
      port: e.PORT,
      publicBaseUrl: e.PUBLIC_BASE_URL,
      trustProxy: e.TRUST_PROXY,
      bodyLimitBytes: e.BODY_LIMIT_BYTES,
      responseCheck: e.RESPONSE_CHECK ?? (e.NODE_ENV === 'production' ? 'shape' : 'parse'),
    }),
    database: Object.freeze({ url: e.DATABASE_URL, poolMax: e.DATABASE_POOL_MAX }),
    temporal: Object.freeze({
      address: e.TEMPORAL_ADDRESS,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      tls: e.TEMPORAL_TLS,
      tlsCertPath: e.TEMPORAL_TLS_CERT_PATH,
      tlsKeyPath: e.TEMPORAL_TLS_KEY_PATH,
      tlsCaPath: e.TEMPORAL_TLS_CA_PATH,
      apiKey: e.TEMPORAL_API_KEY,
      maxCachedWorkflows: e.TEMPORAL_MAX_CACHED_WORKFLOWS,
      maxConcurrentActivities: e.TEMPORAL_MAX_CONCURRENT_ACTIVITIES,
      workflowBundlePath: e.WORKFLOW_BUNDLE_PATH,
      cliPath: e.TEMPORAL_CLI_PATH,
      testServerPath: e.TEMPORAL_TEST_SERVER_PATH,
      serverPath: e.TEMPORAL_SERVER_PATH,
      sqlToolPath: e.TEMPORAL_SQL_TOOL_PATH,
      historyShards: e.TEMPORAL_HISTORY_SHARDS,
      binarySearchPath: e.PATH,
    }),
    dev: Object.freeze({ postgresPort: e.DEV_POSTGRES_PORT }),
    webhooks: Object.freeze({
      allowInsecureLocal: e.WEBHOOK_ALLOW_INSECURE_LOCAL ?? false,
      allowInsecureLocalSetting: e.WEBHOOK_ALLOW_INSECURE_LOCAL,
    }),
    platform: Object.freeze(
      e.PLATFORM === 'discord' ? { kind: 'discord' as const, token: e.DISCORD_TOKEN!, apiUrl: e.DISCORD_API_URL.replace(/\/+$/, '') } : { kind: 'local' as const },
    ),
    bot: Object.freeze({
      port: e.BOT_PORT,
      shardCount: e.DISCORD_SHARD_COUNT,
      shardIds: e.DISCORD_SHARD_IDS === undefined ? undefined : shardIdsOf(e.DISCORD_SHARD_IDS),
    }),
    ops: Object.freeze({
      workerPort: e.WORKER_PORT,
      drainMs: e.SHUTDOWN_DRAIN_MS,
      workerShutdownGraceMs: e.WORKER_SHUTDOWN_GRACE_MS,
      workerShutdownForceMs: e.WORKER_SHUTDOWN_FORCE_MS,
      temporalMetricsPort: e.TEMPORAL_METRICS_PORT,
    }),
    console: Object.freeze({
      sessionIdleMinutes: e.CONSOLE_SESSION_IDLE_MINUTES,
      sessionAbsoluteHours: e.CONSOLE_SESSION_ABSOLUTE_HOURS,
      signInPerMinute: e.CONSOLE_SIGN_IN_LIMIT,
      temporalUiUrl: e.TEMPORAL_UI_URL.replace(/\/+$/, ''),
      discordOAuth:
        e.DISCORD_CLIENT_ID && e.DISCORD_CLIENT_SECRET && e.CONSOLE_REDIRECT_URI
          ? Object.freeze({
              clientId: e.DISCORD_CLIENT_ID,
              clientSecret: e.DISCORD_CLIENT_SECRET,
              redirectUri: e.CONSOLE_REDIRECT_URI,
              authorizeUrl: e.DISCORD_OAUTH_AUTHORIZE_URL,
            })
          : undefined,
    }),
    limits: Object.freeze({
      authFailuresPerMinute: e.AUTH_FAILURE_LIMIT,
      memberCacheSeconds: e.MEMBER_CACHE_SECONDS,
      credentialCacheEntries: e.CREDENTIAL_CACHE_ENTRIES,
      credentialVersionCheckMs: e.CREDENTIAL_VERSION_CHECK_MS,
      requestsPerMinute: Object.freeze({ free: e.RATE_LIMIT_FREE_PER_MINUTE, pro: e.RATE_LIMIT_PRO_PER_MINUTE }),
      rateLimitFlushMs: e.RATE_LIMIT_FLUSH_MS,
    }),
  });
}
