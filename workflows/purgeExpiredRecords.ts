import { patched, proxyActivities } from '@temporalio/workflow';
import type { KeysActivities } from '../activities/keys.js';
import type { PurgeResult, RetentionPurgeOptions, RetentionPurgeResult } from '../src/keys/ids.js';
import { MAINTENANCE_PASS, RETENTION_PASS } from './activityProfiles.js';

const { purgeExpiredRecords: purge } = proxyActivities<KeysActivities>(MAINTENANCE_PASS);
const { purgeRetention } = proxyActivities<KeysActivities>(RETENTION_PASS);

/**
 * Run by the hourly `maintenance/purge-expired-records` schedule until it was retired (src/keys/schedules.ts), kept
 * registered for the runs it started before an upgrade deleted it. Patch `retention-purge`:
 * every record kind past its retention, in heartbeating batches within a time budget; runs from before it keep the
 * one-statement purge of the service's bookkeeping.
 */
export async function purgeExpiredRecords(options?: RetentionPurgeOptions): Promise<PurgeResult | RetentionPurgeResult> {
  if (patched('retention-purge')) return purgeRetention(options ?? {});
  return purge();
}
