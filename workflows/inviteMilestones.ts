import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { InvitesActivities } from '../activities/invites.js';
import type { InviteMilestonesInput, InviteMilestonesResult } from '../src/invites/ids.js';
import { DATABASE_STEP, PLATFORM_EFFECT } from './activityProfiles.js';

const steps = proxyLocalActivities<InvitesActivities>(DATABASE_STEP);
const effects = proxyActivities<InvitesActivities>(PLATFORM_EFFECT);

/** Grants the milestone roles a member's invites reach, each once; started after each change that reached one. */
export async function inviteMilestones({ guildId, userId }: InviteMilestonesInput): Promise<InviteMilestonesResult> {
  const due = await steps.dueInviteMilestones(guildId, userId);
  const granted: string[] = [];
  for (const m of due) {
    if (await effects.grantInviteMilestone(guildId, userId, m.roleId, m.invites)) granted.push(m.roleId);
  }
  return { granted };
}
