import type { ScheduleDefinition } from '../core/temporal/schedules.js';
import { giveawayEndsWorkflow } from './ids.js';

export const GIVEAWAY_ENDS_SCHEDULE_ID = 'giveaways/ends';

/** The clock of batch-ended giveaways: their ends_at in PostgreSQL is the durable timer, this firing reads it. */
export const giveawayEndsSchedule: ScheduleDefinition = {
  id: GIVEAWAY_ENDS_SCHEDULE_ID,
  every: '1 second',
  workflow: giveawayEndsWorkflow,
  operation: 'giveaways.ends',
  summary: 'Draw the giveaways whose end is due and apply their effects',
};
