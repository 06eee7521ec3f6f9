import type { ScheduleDefinition } from '../core/temporal/schedules.js';
import { refreshLevelRanksWorkflow } from './ids.js';

export const RANKS_SCHEDULE_ID = 'maintenance/refresh-level-ranks';

export const levelRanksSchedule: ScheduleDefinition = {
  id: RANKS_SCHEDULE_ID,
  every: '1 minute',
  workflow: refreshLevelRanksWorkflow,
  operation: 'maintenance.levelRanks',
  summary: 'Recompute the level rank snapshots of large servers',
};
