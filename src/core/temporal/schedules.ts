import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type ScheduleOptions } from '@temporalio/client';
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

/** Creates the schedules unless they exist; every worker calls it at start, the first one wins. */
export async function ensureSchedules({ client, taskQueue }: TemporalGateway, schedules: ScheduleDefinition[]): Promise<void> {
  for (const schedule of schedules) {
    try {
      await client.schedule.create(scheduleOptions(schedule, taskQueue));
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    }
  }
}
