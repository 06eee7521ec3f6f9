import { proxyActivities } from '@temporalio/workflow';
import type { KeysActivities } from '../activities/keys.js';
import type { PurgeResult } from '../src/keys/ids.js';
import { MAINTENANCE_PASS } from './activityProfiles.js';

const { purgeExpiredRecords: purge } = proxyActivities<KeysActivities>(MAINTENANCE_PASS);

/** Run by the hourly `maintenance/purge-expired-records` schedule (src/keys/schedules.ts). */
export async function purgeExpiredRecords(): Promise<PurgeResult> {
  return purge();
}
