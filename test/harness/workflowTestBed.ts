import type { Kysely } from 'kysely';
import type { ActivityDeps } from '../../activities/deps.js';
import type { Database } from '../../db/schema.js';
import type { TemporalGateway } from '../../src/core/temporal/gateway.js';
import { useTestDatabase, type TestDatabase } from './database.js';
import { testGateway, useTestWorker, type TestWorker } from './temporal.js';
import { useTestApp, type startTestApp, type TestApp } from './testApp.js';

export interface WorkflowTestBedOptions {
  /** Replaces worker dependencies outside the product, e.g. a failing platform. */
  worker?: Partial<ActivityDeps>;
  /** The app's clock, config and dependencies; its Temporal client is always the bed's gateway. */
  app?: Parameters<typeof startTestApp>[1];
}

export interface WorkflowTestBed {
  database: TestDatabase;
  db: () => Kysely<Database>;
  /** A client on the run's Temporal dev server with a task queue of the file's own; closed after its tests. */
  gateway: TemporalGateway;
  worker: TestWorker;
  app: TestApp;
}

/**
 * The test bed of a workflow test on the Temporal dev server: a database of its own, a real worker polling the
 * file's task queue with real activities on that database, and the real app whose writes start workflows there.
 */
export function useWorkflowTestBed(options: WorkflowTestBedOptions = {}): WorkflowTestBed {
  const database = useTestDatabase();
  const db = () => database.db;
  const gateway = testGateway();
  const worker = useTestWorker(db, gateway, options.worker);
  const app = useTestApp(db, { ...options.app, deps: { ...options.app?.deps, temporal: gateway } });
  return { database, db, gateway, worker, app };
}
