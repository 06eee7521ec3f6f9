import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';

const { purgeExpiredRecords: purge } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 5 },
});

/** Run by the hourly `maintenance/purge-expired-records` schedule (src/core/temporal/schedules.ts). */
export async function purgeExpiredRecords(): Promise<{ idempotencyRecords: number; rateLimitWindows: number }> {
  return purge();
}
