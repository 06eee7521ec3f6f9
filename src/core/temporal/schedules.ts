import { ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
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

/** Creates the schedules unless they exist; every worker calls it at start, the first one wins. */
export async function ensureSchedules({ client, taskQueue }: TemporalGateway, schedules: ScheduleDefinition[]): Promise<void> {
  for (const schedule of schedules) {
    try {
      await client.schedule.create({
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
      });
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    }
  }
}
