import {
  ParentClosePolicy,
  patched,
  proxyActivities,
  proxyLocalActivities,
  sleep,
  startChild,
  upsertMemo,
  workflowInfo,
} from '@temporalio/workflow';
import type { ModerationActivities } from '../activities/moderation.js';
import {
  MOD_ACTION_STATUS_MEMO,
  modActionWorkflowId,
  type ModerationActionInput,
  type ModerationActionOutcome,
} from '../src/moderation/ids.js';
import { DATABASE_STEP, PLATFORM_EFFECT } from './activityProfiles.js';
import { refusalCode } from './refusalCode.js';

const PLATFORM_REFUSAL_PATCH = 'mod-action-platform-refusal';

const steps = proxyLocalActivities<ModerationActivities>(DATABASE_STEP);
// The action stays `running` while the platform is out.
const effects = proxyActivities<ModerationActivities>(PLATFORM_EFFECT);

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
  let dmStatus: Awaited<ReturnType<ModerationActivities['notifyModTarget']>>;
  try {
    dmStatus = await effects.notifyModTarget(actionId, until);
    await effects.applyModEffect(actionId, until);
  } catch (err) {
    // The platform refused the effect for good (Discord: the bot lacks a permission): the action fails with
    // that code. Runs from before the Discord adapter could not get here (the local platform never refuses).
    if (!patched(PLATFORM_REFUSAL_PATCH)) throw err;
    const error = refusalCode(err);
    await steps.finishModAction(actionId, { status: 'failed', error });
    setStatus('failed', { error });
    return { status: 'failed', error };
  }
  const recorded = await steps.recordModCase(actionId, { dmStatus, until });
  const { caseNumber } = recorded;
  await steps.finishModAction(actionId, { status: 'done', caseNumber });
  setStatus('done', { caseNumber });
  await effects.postModLog(guildId, caseNumber);
  if (recorded.escalationActionId) {
    await startChild(moderationAction, {
      workflowId: modActionWorkflowId(guildId, recorded.escalationActionId),
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
