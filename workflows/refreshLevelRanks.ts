import { proxyActivities } from '@temporalio/workflow';
import type { LevelsActivities } from '../activities/levels.js';
import { LONG_MAINTENANCE_PASS } from './activityProfiles.js';

const { refreshLevelRankSnapshots } = proxyActivities<LevelsActivities>(LONG_MAINTENANCE_PASS);

/** Run every minute by the `maintenance/refresh-level-ranks` schedule (src/levels/schedules.ts). */
export async function refreshLevelRanks(): Promise<{ refreshed: number; dropped: number }> {
  return refreshLevelRankSnapshots();
}
