import {
  ParentClosePolicy,
  proxyActivities,
  proxyLocalActivities,
  sleep,
  startChild,
  upsertMemo,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { refusalCode } from './refusalCode.js';

export interface ModerationActionInput {
  actionId: string;
  guildId: string;
}

export type ModerationActionOutcome = { status: 'done'; caseNumber: number } | { status: 'failed'; error: string };

/** Memo keys the API reads with describe(): the run stays open after `done` while a timer runs. */
export const MOD_ACTION_STATUS_MEMO = 'status';

const steps = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '1 minute', maximumAttempts: 10 },
});
// Platform effects wait out an outage rather than give up: the action stays `running` meanwhile.
const effects = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

const setStatus = (status: 'running' | 'done' | 'failed', detail: Record<string, unknown> = {}) =>
  upsertMemo({ [MOD_ACTION_STATUS_MEMO]: status, ...detail });

/**
 * One moderation action: checked against the rules, the member DMed (before a kick or ban, while the DM
 * still reaches them), the action applied, the case recorded with its event. A timeout, tempban or
 * expiring warning then waits for its end in this run and closes the case; an escalation runs as a child.
 */
export async function moderationAction({ actionId, guildId }: ModerationActionInput): Promise<ModerationActionOutcome> {
  setStatus('running');
  let durationSeconds: number | null;
  try {
    ({ durationSeconds } = await steps.beginModAction(actionId));
  } catch (err) {
    const error = refusalCode(err);
    await steps.finishModAction(actionId, { status: 'failed', error });
    setStatus('failed', { error });
    return { status: 'failed', error };
  }
  // Workflow time: the same instant on replay, so every retry of the effect sets the same end.
  const until = durationSeconds ? new Date(Date.now() + durationSeconds * 1000).toISOString() : null;
  const dmStatus = await effects.notifyModTarget(actionId, until);
  await effects.applyModEffect(actionId, until);
  const recorded = await steps.recordModCase(actionId, { dmStatus, until });
  const { caseNumber } = recorded;
  await steps.finishModAction(actionId, { status: 'done', caseNumber });
  setStatus('done', { caseNumber });
  await effects.postModLog(guildId, caseNumber);
  if (recorded.escalationActionId) {
    await startChild(moderationAction, {
      workflowId: `mod-action/${guildId}/${recorded.escalationActionId}`,
      args: [{ actionId: recorded.escalationActionId, guildId }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      typedSearchAttributes: workflowInfo().typedSearchAttributes,
      staticSummary: `Escalation of case #${caseNumber}`,
    });
  }
  if (recorded.expiresAt) {
    await sleep(Math.max(0, Date.parse(recorded.expiresAt) - Date.now()), { summary: `case #${caseNumber} runs out at ${recorded.expiresAt}` });
    await effects.expireModCase(guildId, caseNumber);
  }
  return { status: 'done', caseNumber };
}
