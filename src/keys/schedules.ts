import type { ScheduleDefinition } from '../core/temporal/schedules.js';
import { purgeExpiredRecordsWorkflow } from './ids.js';

export const PURGE_SCHEDULE_ID = 'maintenance/purge-expired-records';

export const purgeSchedule: ScheduleDefinition = {
  id: PURGE_SCHEDULE_ID,
  every: '1 hour',
  workflow: purgeExpiredRecordsWorkflow,
  operation: 'maintenance.purge',
  summary: 'Purge the records past their retention (docs/retention.md) in batches',
};
