import { ScheduleOverlapPolicy } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { scheduleOptions } from '../../../src/core/temporal/schedules.js';
import { OPERATION } from '../../../src/core/temporal/searchAttributes.js';
import { purgeExpiredRecordsWorkflow } from '../../../src/keys/ids.js';

// A changed spec, policy or action reaches a cluster at the next worker start (ensureSchedules updates the schedule),
// but a changed id leaves the old schedule running beside the new one: these are what Temporal is given.
describe('scheduleOptions', () => {
  it.each([
    // The retired purge schedule's declaration, as the release before the purge dispatcher gave it.
    [
      'maintenance/purge-expired-records',
      { id: 'maintenance/purge-expired-records', every: '1 hour', workflow: purgeExpiredRecordsWorkflow, operation: 'maintenance.purge', summary: 'Purge the records past their retention' },
      '1 hour',
      'purgeExpiredRecords',
      'maintenance.purge',
      'Purge the records past their retention',
    ],
  ])('%s: its interval, one run at a time under the schedule id', (id, schedule, every, workflowType, operation, summary) => {
    expect(scheduleOptions(schedule, 'the-queue')).toEqual({
      scheduleId: id,
      spec: { intervals: [{ every }] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
      action: {
        type: 'startWorkflow',
        workflowType,
        taskQueue: 'the-queue',
        workflowId: id,
        typedSearchAttributes: [{ key: OPERATION, value: operation }],
        staticSummary: summary,
      },
    });
  });
});
