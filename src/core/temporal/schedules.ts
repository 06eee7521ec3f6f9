import { ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import type { TemporalGateway } from './gateway.js';
import { OPERATION } from './searchAttributes.js';

export const PURGE_SCHEDULE_ID = 'maintenance/purge-expired-records';
export const RANKS_SCHEDULE_ID = 'maintenance/refresh-level-ranks';

const SCHEDULES = [
  {
    id: PURGE_SCHEDULE_ID,
    every: '1 hour',
    workflowType: 'purgeExpiredRecords',
    operation: 'maintenance.purge',
    summary: 'Purge Idempotency-Key records older than 24 h and ended rate-limit windows',
  },
  {
    id: RANKS_SCHEDULE_ID,
    every: '1 minute',
    workflowType: 'refreshLevelRanks',
    operation: 'maintenance.levelRanks',
    summary: 'Recompute the level rank snapshots of large servers',
  },
] as const;

/** Creates the service's schedules unless they exist; every worker calls it at start, the first one wins. */
export async function ensureSchedules({ client, taskQueue }: TemporalGateway): Promise<void> {
  for (const schedule of SCHEDULES) {
    try {
      await client.schedule.create({
        scheduleId: schedule.id,
        spec: { intervals: [{ every: schedule.every }] },
        policies: { overlap: ScheduleOverlapPolicy.SKIP },
        action: {
          type: 'startWorkflow',
          workflowType: schedule.workflowType,
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
