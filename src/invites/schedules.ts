import type { ScheduleDefinition } from '../core/temporal/schedules.js';
import { refreshInviteRanksWorkflow } from './ids.js';

export const INVITE_RANKS_SCHEDULE_ID = 'maintenance/refresh-invite-ranks';

export const inviteRanksSchedule: ScheduleDefinition = {
  id: INVITE_RANKS_SCHEDULE_ID,
  every: '1 minute',
  workflow: refreshInviteRanksWorkflow,
  operation: 'maintenance.inviteRanks',
  summary: 'Recompute the invite rank snapshots of large servers',
};
