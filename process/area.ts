import type { Kysely } from 'kysely';
import type { ActivityDeps } from '../activities/deps.js';
import type { AppDeps } from '../api/context.js';
import type { RouteDefinition } from '../api/route.js';
import type { Database } from '../db/schema.js';
import { relayUnstarted, type Operation, type OperationDeps } from '../src/core/temporal/operation.js';
import type { TemporalGateway } from '../src/core/temporal/gateway.js';
import type { ScheduleDefinition } from '../src/core/temporal/schedules.js';
import type { Workflow, WorkflowRef } from '../src/core/temporal/workflowRef.js';

export type RelayDeps = OperationDeps<Kysely<Database>>;
/** One pass of the start relay: starts what a crash or an outage left unstarted; returns how many. */
export type RelayPass = (deps: RelayDeps) => Promise<number>;
type ActivityFunction = (...args: never[]) => Promise<unknown>;

/**
 * Everything the processes need to know of one area. Adding an area means writing its module and
 * adding it to AREAS (areas.ts); routes, activities, relays, schedules and the workflow check follow.
 */
export interface AreaModule {
  name: string;
  routes?(deps: AppDeps): RouteDefinition[];
  activities?(deps: ActivityDeps): Record<string, ActivityFunction>;
  relays?: RelayPass[];
  schedules?: ScheduleDefinition[];
  /** Ids of schedules an earlier release declared: each worker's start deletes them. */
  retiredSchedules?: string[];
  /** What each worker's start tells Temporal once it polls (the giveaway end dispatcher's wake). */
  atWorkerStart?: Array<(temporal: TemporalGateway) => Promise<void>>;
  /** Every workflow type the area runs; each must be exported by workflows/index.ts (registry test). */
  workflows?: Array<WorkflowRef<Workflow>>;
}

/** The relay pass of an operation whose start may be lost between commit and start. */
export const relayOf =
  <R, W extends Workflow>(operation: Operation<R, W, Kysely<Database>>): RelayPass =>
  (deps) =>
    relayUnstarted(deps, operation);
