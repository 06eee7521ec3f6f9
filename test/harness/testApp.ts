import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../../api/app.js';
import { AREAS } from '../../process/areas.js';
import { collectRoutes } from '../../process/registry.js';
import { KeyHitCounter } from '../../api/keyHitCounter.js';
import type { AppDeps } from '../../api/context.js';
import type { Database } from '../../db/schema.js';
import { fixedClock, systemClock, type Clock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/logger.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { createMemberCache } from '../../src/core/memberCache.js';
import { createHttpClient, type HttpClient } from './httpClient.js';
import { testGateway } from './temporal.js';

export interface TestApp {
  deps: AppDeps;
  baseUrl: string;
  /** Sends a request to `/api/v1` + path. */
  http: HttpClient;
}

export type TestClock = ReturnType<typeof fixedClock>;

/** The real app on a loopback port, wired like the api entrypoint but with the test's database and clock. */
export async function startTestApp(
  db: Kysely<Database>,
  overrides: { clock?: Clock; env?: Record<string, string>; deps?: Partial<AppDeps>; port?: number } = {},
): Promise<TestApp & { close(): Promise<void> }> {
  // The console tests sign in with the development sign-in, which exists with the local platform only.
  const devSignIn = overrides.env?.PLATFORM === 'discord' ? {} : { CONSOLE_DEV_SIGN_IN: 'true' };
  const config = loadConfig({ NODE_ENV: 'test', MEMBER_CACHE_SECONDS: '0', ...devSignIn, ...overrides.env });
  const clock = overrides.clock ?? systemClock;
  const platform = overrides.deps?.platform ?? createLocalPlatform(db);
  const deps: AppDeps = {
    config,
    db,
    platform,
    memberCache: createMemberCache(platform, clock, config.limits.memberCacheSeconds),
    clock,
    logger: createLogger('silent', 'api-test'),
    temporal: overrides.deps?.temporal ?? testGateway(),
    keyHits: new KeyHitCounter(db, config.limits.rateLimitFlushMs),
    ...overrides.deps,
  };
  const server: Server = createServer(createApp(deps, collectRoutes(AREAS, deps)).callback());
  await new Promise<void>((resolve) => server.listen(overrides.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    deps,
    baseUrl,
    http: createHttpClient(`${baseUrl}/api/v1`),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())).then(() => deps.keyHits.flush()),
  };
}

/** startTestApp for a whole test file: started before its tests, closed after them. */
export function useTestApp(getDb: () => Kysely<Database>, overrides: Parameters<typeof startTestApp>[1] = {}): TestApp {
  const app = {} as TestApp & { close(): Promise<void> };
  beforeAll(async () => Object.assign(app, await startTestApp(getDb(), overrides)));
  afterAll(async () => app.close?.());
  return app;
}
