import { proxyActivities } from '@temporalio/workflow';
import type { InvitesActivities } from '../activities/invites.js';
import { LONG_MAINTENANCE_PASS } from './activityProfiles.js';

const { refreshInviteRankSnapshots } = proxyActivities<InvitesActivities>(LONG_MAINTENANCE_PASS);

/** Run every minute by the `maintenance/refresh-invite-ranks` schedule (src/invites/schedules.ts). */
export async function refreshInviteRanks(): Promise<{ refreshed: number; dropped: number }> {
  return refreshInviteRankSnapshots();
}
