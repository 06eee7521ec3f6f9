import { ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import type { TemporalGateway } from './gateway.js';
import { OPERATION } from './searchAttributes.js';

export const PURGE_SCHEDULE_ID = 'maintenance/purge-expired-records';

/** Creates the service's schedules unless they exist; every worker calls it at start, the first one wins. */
export async function ensureSchedules({ client, taskQueue }: TemporalGateway): Promise<void> {
  try {
    await client.schedule.create({
      scheduleId: PURGE_SCHEDULE_ID,
      spec: { intervals: [{ every: '1 hour' }] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
      action: {
        type: 'startWorkflow',
        workflowType: 'purgeExpiredRecords',
        taskQueue,
        workflowId: 'maintenance/purge-expired-records',
        typedSearchAttributes: [{ key: OPERATION, value: 'maintenance.purge' }],
        staticSummary: 'Purge Idempotency-Key records older than 24 h and ended rate-limit windows',
      },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
}
