import { patched, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { InvitesActivities } from '../activities/invites.js';
import type { InviteMilestonesInput, InviteMilestonesResult } from '../src/invites/ids.js';
import { DATABASE_STEP, PLATFORM_EFFECT } from './activityProfiles.js';
import { refusalCode } from './refusalCode.js';

const steps = proxyLocalActivities<InvitesActivities>(DATABASE_STEP);
const effects = proxyActivities<InvitesActivities>(PLATFORM_EFFECT);

const PLATFORM_REFUSAL_PATCH = 'invite-milestones-platform-refusal';

/**
 * Grants the milestone roles a member's invites reach, each once; started after each change that reached one. A role
 * the platform refuses for good (Discord: the bot lacks Manage Roles or sits below the role) is recorded in `refused`
 * and stays due, so a later change tries it again; the other milestones are still granted. Outages are retried. Runs
 * from before the Discord adapter could not get a refusal (the local platform never refuses).
 */
export async function inviteMilestones({ guildId, userId }: InviteMilestonesInput): Promise<InviteMilestonesResult> {
  const due = await steps.dueInviteMilestones(guildId, userId);
  const granted: string[] = [];
  const refused: NonNullable<InviteMilestonesResult['refused']> = [];
  for (const m of due) {
    try {
      if (await effects.grantInviteMilestone(guildId, userId, m.roleId, m.invites)) granted.push(m.roleId);
    } catch (err) {
      if (!patched(PLATFORM_REFUSAL_PATCH)) throw err;
      refused.push({ roleId: m.roleId, error: refusalCode(err) });
    }
  }
  return { granted, refused };
}
