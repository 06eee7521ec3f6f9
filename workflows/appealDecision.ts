import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { AppealsActivities } from '../activities/appeals.js';
import type { AppealDecisionInput, FailedAppealAction } from '../src/appeals/ids.js';
import { BOUNDED_PLATFORM_EFFECT, DATABASE_STEP } from './activityProfiles.js';
import { effectFailure } from './effectFailures.js';

const steps = proxyLocalActivities<AppealsActivities>(DATABASE_STEP);
// The decision already stands: a step that keeps failing shows in the appeal's failedAction.
const effects = proxyActivities<AppealsActivities>(BOUNDED_PLATFORM_EFFECT);

/**
 * Applies a decided appeal on the platform. Approved: unban (with an unban case when Moderation is on),
 * a single-use invite, a DM with it. Rejected: the rejection DM per the appeal settings.
 */
export async function appealDecision({ guildId, number, decision }: AppealDecisionInput): Promise<{ failedAction: FailedAppealAction | null }> {
  const failedAction = await applyDecision(guildId, number, decision);
  await steps.finishAppealDecision(guildId, number, failedAction);
  return { failedAction };
}

/** The effects in order; the first that fails for good ends the decision's effects (no invite without the unban). */
async function applyDecision(guildId: string, number: number, decision: AppealDecisionInput['decision']): Promise<FailedAppealAction | null> {
  let inviteUrl: string | null = null;
  if (decision === 'approved') {
    const unban = await effectFailure('unban', () => effects.unbanAppellant(guildId, number));
    if (unban) return unban;
    const invite = await effectFailure('invite', async () => (inviteUrl = await effects.createAppealInvite(guildId, number)));
    if (invite) return invite;
  }
  return effectFailure('dm', () => effects.notifyAppellant(guildId, number, inviteUrl));
}
