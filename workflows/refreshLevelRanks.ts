import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';

const { refreshLevelRankSnapshots } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { maximumAttempts: 3 },
});

/** Run every minute by the `maintenance/refresh-level-ranks` schedule (src/core/temporal/schedules.ts). */
export async function refreshLevelRanks(): Promise<{ refreshed: number; dropped: number }> {
  return refreshLevelRankSnapshots();
}
