import { ActivityFailure, ApplicationFailure, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { FailedAppealAction } from '../db/appeals/appeals.js';

export interface AppealDecisionInput {
  guildId: string;
  number: number;
  decision: 'approved' | 'rejected';
}

const steps = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '1 minute', maximumAttempts: 10 },
});
// The decision already stands; its effects get about ten minutes of retries, then the appeal shows which
// step failed (failedAction) so staff can finish it by hand.
const effects = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 8 },
});

/**
 * Applies a decided appeal on the platform. Approved: unban (with an unban case when Moderation is on),
 * a single-use invite, a DM with it. Rejected: the rejection DM per the appeal settings.
 */
export async function appealDecision({ guildId, number, decision }: AppealDecisionInput): Promise<{ failedAction: FailedAppealAction | null }> {
  const failedAction = await applyDecision(guildId, number, decision);
  await steps.finishAppealDecision(guildId, number, failedAction);
  return { failedAction };
}

async function applyDecision(guildId: string, number: number, decision: AppealDecisionInput['decision']): Promise<FailedAppealAction | null> {
  let inviteUrl: string | null = null;
  if (decision === 'approved') {
    try {
      await effects.unbanAppellant(guildId, number);
    } catch (err) {
      return { type: 'unban', error: failureType(err) };
    }
    try {
      inviteUrl = await effects.createAppealInvite(guildId, number);
    } catch (err) {
      return { type: 'invite', error: failureType(err) };
    }
  }
  try {
    const dm = await effects.notifyAppellant(guildId, number, inviteUrl);
    return dm === 'failed' ? { type: 'dm', error: 'DM_FAILED' } : null;
  } catch (err) {
    return { type: 'dm', error: failureType(err) };
  }
}

function failureType(err: unknown): string {
  if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure) return err.cause.type ?? 'ERROR';
  throw err;
}
