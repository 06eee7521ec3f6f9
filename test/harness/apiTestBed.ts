import type { Kysely } from 'kysely';
import { afterAll } from 'vitest';
import type { Database } from '../../db/schema.js';
import { fixedClock } from '../../src/core/clock.js';
import type { TemporalGateway } from '../../src/core/temporal/gateway.js';
import { useTestDatabase, type TestDatabase } from './database.js';
import { testGateway } from './temporal.js';
import { useTestApp, type TestApp, type TestClock } from './testApp.js';

export interface ApiTestBedOptions {
  /** Stops the app's clock at this instant (`clock` then moves only when the test sets or advances it). */
  now?: Date;
  /** Config overrides on top of the test config (`NODE_ENV=test`, no member cache). */
  env?: Record<string, string>;
  /** A Temporal client of the file's own, on a task queue nobody polls: writes start workflows, no worker runs them. */
  temporal?: boolean;
}

export interface ApiTestBed<O extends ApiTestBedOptions = ApiTestBedOptions> {
  database: TestDatabase;
  db: () => Kysely<Database>;
  app: TestApp;
  /** The app's fixed clock when `now` was given; otherwise undefined and the app runs on the system clock. */
  clock: O extends { now: Date } ? TestClock : undefined;
  /** The app's Temporal client when `temporal: true`, closed after the file's tests. */
  gateway: O extends { temporal: true } ? TemporalGateway : undefined;
}

/**
 * The test bed of an API test: a database of its own, the real app over it on a loopback port and, on request,
 * a fixed clock, config overrides and a Temporal gateway without a worker (for writes that start workflows).
 */
export function useApiTestBed<const O extends ApiTestBedOptions = Record<never, never>>(options: O = {} as O): ApiTestBed<O> {
  const database = useTestDatabase();
  const db = () => database.db;
  const clock = options.now ? fixedClock(options.now) : undefined;
  const gateway = options.temporal ? testGateway() : undefined;
  const app = useTestApp(db, { clock, env: options.env, deps: gateway ? { temporal: gateway } : {} });
  if (gateway) afterAll(() => gateway.client.connection.close());
  return { database, db, app, clock, gateway } as ApiTestBed<O>;
}
