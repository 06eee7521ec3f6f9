import { afterAll } from 'vitest';
import { fixedClock } from '../../src/core/clock.js';
import { useTestDatabase } from './database.js';
import { testGateway } from './temporal.js';
import { useTestApp } from './testApp.js';

/**
 * The test bed of an API test whose writes start workflows: its own database, a clock stopped at `now`,
 * a Temporal client on the shared test server, and the app over them.
 */
export function useApiTestBed(now: Date) {
  const database = useTestDatabase();
  const db = () => database.db;
  const clock = fixedClock(now);
  const gateway = testGateway();
  const app = useTestApp(db, { clock, deps: { temporal: gateway } });
  afterAll(() => gateway.client.connection.close());
  return { database, db, clock, gateway, app };
}
