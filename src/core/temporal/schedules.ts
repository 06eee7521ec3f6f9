import { isDeepStrictEqual } from 'node:util';
import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy, type ScheduleDescription, type ScheduleOptions } from '@temporalio/client';
import { msToNumber } from '@temporalio/common';
import type { Logger } from '../logger.js';
import type { TemporalGateway } from './gateway.js';
import { OPERATION } from './searchAttributes.js';
import type { WorkflowRef } from './workflowRef.js';

/** A recurring run of an area's workflow; its id is also the id of every run it starts. */
export interface ScheduleDefinition {
  id: string;
  every: string;
  workflow: WorkflowRef<() => Promise<unknown>>;
  operation: string;
  summary: string;
}

/**
 * What Temporal is given for an area's schedule: the same interval spec, overlap policy (a firing while the last
 * run is still open is skipped) and workflow action for every area, the run under the schedule's own id.
 */
export function scheduleOptions(schedule: ScheduleDefinition, taskQueue: string): ScheduleOptions {
  return {
    scheduleId: schedule.id,
    spec: { intervals: [{ every: schedule.every }] },
    policies: { overlap: ScheduleOverlapPolicy.SKIP },
    action: {
      type: 'startWorkflow',
      workflowType: schedule.workflow.name,
      taskQueue,
      workflowId: schedule.id,
      typedSearchAttributes: [{ key: OPERATION, value: schedule.operation }],
      staticSummary: schedule.summary,
    },
  };
}

/** What a declared schedule says that Temporal's copy may no longer: its interval, overlap policy and action. */
function fingerprint(every: number, overlap: string, workflowType: string, taskQueue: string, workflowId: string) {
  return { every, overlap, workflowType, taskQueue, workflowId };
}

function declared(options: ScheduleOptions) {
  const action = options.action as { workflowType: string; taskQueue: string; workflowId: string };
  return fingerprint(msToNumber(options.spec.intervals![0]!.every), options.policies!.overlap!, action.workflowType, action.taskQueue, action.workflowId);
}

function described(description: ScheduleDescription) {
  const { action, spec, policies } = description;
  // A schedule edited by hand may have several intervals or calendars: then it differs from any declaration.
  const every = spec.intervals?.length === 1 && !spec.calendars?.length ? spec.intervals[0]!.every : Number.NaN;
  return fingerprint(every, policies.overlap ?? '', action.workflowType, action.taskQueue, action.workflowId ?? '');
}

/**
 * Creates each schedule, or brings an existing one to its declaration (every worker calls it at start; the first one
 * creates): a release that changes an interval, a workflow or TEMPORAL_TASK_QUEUE would otherwise leave the old
 * schedule firing at a queue or workflow type nobody serves. Its state (paused by an operator, notes) is kept.
 * The ids in `retired` (schedules an earlier release declared) are deleted, so an upgrade stops them firing.
 */
export async function ensureSchedules(
  { client, taskQueue }: TemporalGateway,
  schedules: ScheduleDefinition[],
  logger?: Logger,
  retired: string[] = [],
): Promise<void> {
  for (const scheduleId of retired) {
    try {
      await client.schedule.getHandle(scheduleId).delete();
      logger?.info({ scheduleId }, 'retired schedule deleted');
    } catch (err) {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    }
  }
  for (const schedule of schedules) {
    const options = scheduleOptions(schedule, taskQueue);
    try {
      await client.schedule.create(options);
      continue;
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    }
    const handle = client.schedule.getHandle(schedule.id);
    const was = described(await handle.describe());
    const wanted = declared(options);
    if (isDeepStrictEqual(was, wanted)) continue;
    const { scheduleId: _, ...update } = options;
    await handle.update((current) => ({ ...update, state: { paused: current.state.paused, note: current.state.note } }));
    logger?.info({ scheduleId: schedule.id, was, now: wanted }, 'schedule updated to its declaration');
  }
}
