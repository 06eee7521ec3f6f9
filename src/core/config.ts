import { z } from 'zod';
import type { Plan } from './plans.js';
import { booleanFlag } from './settings/envFlag.js';
import { botSettingsOf, checkDiscordEnv, discordEnv, egressSettingsOf, platformSettingsOf, type BotSettings, type EgressSettings, type PlatformSettings } from './settings/discordSettings.js';
import { checkConsoleEnv } from './settings/consoleSettings.js';
import { checkTemporalEnv, temporalEnv, temporalSettingsOf, type TemporalSettings } from './settings/temporalSettings.js';
import { checkOpsEnv, opsEnv, opsSettingsOf, type OpsSettings } from './settings/opsSettings.js';
import { databaseEnv, databaseSettingsOf, type DatabaseSettings } from './settings/databaseSettings.js';
import { readSecretFiles } from './settings/secretFiles.js';

export type { ShardIds } from './settings/discordSettings.js';

/** Every setting the processes read from the environment, parsed once at boot. */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Public base URL printed by the dev launcher; defaults to http://HOST:PORT/api/v1. */
  PUBLIC_BASE_URL: z.url().optional(),
  /**
   * The proxies (load balancers) in front of the api, each appending the address it saw to X-Forwarded-For: the
   * client's address is read that many entries from the right, so what the client wrote further left is ignored.
   * `true` means 1 (the one balancer of most deployments); `false` or 0: no proxy, X-Forwarded-* ignored.
   */
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d)$/, 'must be the number of proxies in front of the api (0 to 9), or true (1) or false (0)')
    .default('false')
    .transform((value) => (value === 'true' ? 1 : value === 'false' ? 0 : Number(value))),
  /**
   * Strict-Transport-Security's max-age on responses to https requests (one year, with includeSubDomains); 0 sends
   * none, for a load balancer that adds the header itself.
   */
  HSTS_MAX_AGE_SECONDS: z.coerce.number().int().min(0).max(63_072_000).default(31_536_000),
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(20),
  /** Port of the embedded PostgreSQL that `npm run dev` starts when DATABASE_URL is not set. */
  DEV_POSTGRES_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
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
  /** The worker's own HTTP port: /livez, /readyz, /metrics (on HOST). */
  WORKER_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
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
  /**
   * The platform user ids of the service's operators (comma-separated): only they see the console's links into
   * Temporal UI, which is operator tooling showing every server's runs. Server managers see the attempt timeline.
   */
  CONSOLE_OPERATOR_USER_IDS: z
    .string()
    .regex(/^\d{17,20}(,\d{17,20})*$/, 'must be user ids (17 to 20 digits) separated by commas')
    .optional(),
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
  /**
   * The console's passwordless development sign-in (sign in as any member of the local platform). Unset: off,
   * except under `npm run dev` with the local platform (process/dev/devSignIn.ts). It opens the console to anyone,
   * so it exists only with PLATFORM=local and is refused with NODE_ENV=production.
   */
  CONSOLE_DEV_SIGN_IN: booleanFlag.optional(),
  /** Discord's authorization page (a local fake in tests). */
  DISCORD_OAUTH_AUTHORIZE_URL: z.url({ protocol: /^https?$/ }).default('https://discord.com/oauth2/authorize'),
  ...temporalEnv,
  ...discordEnv,
  ...opsEnv,
  ...databaseEnv,
}).superRefine((e, ctx) => {
  checkTemporalEnv(e, ctx);
  checkDiscordEnv(e, ctx);
  checkOpsEnv(e, ctx);
  const oauth = [e.DISCORD_CLIENT_ID, e.DISCORD_CLIENT_SECRET, e.CONSOLE_REDIRECT_URI];
  if (oauth.some(Boolean) && !oauth.every(Boolean)) {
    ctx.addIssue({
      code: 'custom',
      path: ['DISCORD_CLIENT_ID'],
      message: "DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET and CONSOLE_REDIRECT_URI are set together (the console's Discord sign-in needs all three)",
    });
  }
  checkConsoleEnv(e, ctx);
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

/**
 * The environment variables the config reads (each secret's `<NAME>_FILE` form aside: SECRET_SETTINGS); the
 * deployment manifests set no other (test/infra/kubernetesManifests.test.ts).
 */
export const CONFIG_VARIABLES: readonly string[] = Object.freeze(Object.keys(EnvSchema.shape));

export type Config = Readonly<{
  env: 'development' | 'test' | 'production';
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  http: Readonly<{
    host: string;
    port: number;
    publicBaseUrl?: string;
    /** Proxies trusted for X-Forwarded-* (0: none); the client address is the entry that many from the right. */
    trustedProxies: number;
    /** Strict-Transport-Security's max-age on https responses; 0: not sent. */
    hstsMaxAgeSeconds: number;
    bodyLimitBytes: number;
    responseCheck: 'parse' | 'shape';
  }>;
  database: DatabaseSettings;
  temporal: TemporalSettings;
  dev: Readonly<{ postgresPort: number }>;
  webhooks: Readonly<{
    allowInsecureLocal: boolean;
    /** WEBHOOK_ALLOW_INSECURE_LOCAL as set; undefined when unset (dev then allows local receivers). */
    allowInsecureLocalSetting: boolean | undefined;
  }>;
  platform: PlatformSettings;
  bot: BotSettings;
  /** The fleet's Discord egress (process/egress): its port and where it sends. */
  egress: EgressSettings;
  ops: Readonly<
    {
      workerPort: number;
      drainMs: number;
      workerShutdownGraceMs: number;
      workerShutdownForceMs: number;
      temporalMetricsPort?: number;
    } & OpsSettings
  >;
  console: Readonly<{
    sessionIdleMinutes: number;
    sessionAbsoluteHours: number;
    signInPerMinute: number;
    temporalUiUrl: string;
    operatorUserIds: readonly string[];
    /** Whether the development sign-in is served (local platform only; never in production). */
    devSignIn: boolean;
    /** CONSOLE_DEV_SIGN_IN as set; undefined when unset (`npm run dev` then turns it on). */
    devSignInSetting: boolean | undefined;
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
  const files = readSecretFiles(env);
  const parsed = EnvSchema.safeParse(files.env);
  if (!parsed.success || files.issues.length) {
    // A secret whose file was refused is missing for the schema too (and for the checks of settings that go with
    // it): the file's line says why, once.
    const fromFiles = files.issues.map((issue) => issue.secret);
    const aboutRefused = (issue: z.core.$ZodIssue) => fromFiles.some((secret) => issue.path[0] === secret || issue.message.includes(secret));
    const schemaIssues = parsed.error?.issues.filter((issue) => !aboutRefused(issue)) ?? [];
    const lines = [...files.issues.map((issue) => `  ${issue.setting}: ${issue.message}`), ...schemaIssues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)];
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
      trustedProxies: e.TRUST_PROXY,
      hstsMaxAgeSeconds: e.HSTS_MAX_AGE_SECONDS,
      bodyLimitBytes: e.BODY_LIMIT_BYTES,
      responseCheck: e.RESPONSE_CHECK ?? (e.NODE_ENV === 'production' ? 'shape' : 'parse'),
    }),
    database: databaseSettingsOf(e),
    temporal: temporalSettingsOf(e),
    dev: Object.freeze({ postgresPort: e.DEV_POSTGRES_PORT }),
    webhooks: Object.freeze({
      allowInsecureLocal: e.WEBHOOK_ALLOW_INSECURE_LOCAL ?? false,
      allowInsecureLocalSetting: e.WEBHOOK_ALLOW_INSECURE_LOCAL,
    }),
    platform: platformSettingsOf(e),
    bot: botSettingsOf(e),
    egress: egressSettingsOf(e),
    ops: Object.freeze({
      workerPort: e.WORKER_PORT,
      drainMs: e.SHUTDOWN_DRAIN_MS,
      workerShutdownGraceMs: e.WORKER_SHUTDOWN_GRACE_MS,
      workerShutdownForceMs: e.WORKER_SHUTDOWN_FORCE_MS,
      temporalMetricsPort: e.TEMPORAL_METRICS_PORT,
      ...opsSettingsOf(e),
    }),
    console: Object.freeze({
      sessionIdleMinutes: e.CONSOLE_SESSION_IDLE_MINUTES,
      sessionAbsoluteHours: e.CONSOLE_SESSION_ABSOLUTE_HOURS,
      signInPerMinute: e.CONSOLE_SIGN_IN_LIMIT,
      temporalUiUrl: e.TEMPORAL_UI_URL.replace(/\/+$/, ''),
      operatorUserIds: Object.freeze(e.CONSOLE_OPERATOR_USER_IDS?.split(',') ?? []),
      devSignIn: e.CONSOLE_DEV_SIGN_IN ?? false,
      devSignInSetting: e.CONSOLE_DEV_SIGN_IN,
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
