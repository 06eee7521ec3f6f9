import { ActivityFailure, ApplicationFailure, proxyActivities, upsertMemo } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { XpChangeResult } from '../db/xpChanges.js';

export interface XpChangeInput {
  changeId: string;
  guildId: string;
  userId: string;
}

export type XpChangeOutcome = { status: 'done'; result: XpChangeResult } | { status: 'failed'; error: string };

/** Memo key the API reads with describe() while the run is open (status polling without a worker). */
export const XP_CHANGE_STATUS_MEMO = 'status';

const checks = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', maximumAttempts: 10 },
});
// Effects on the platform wait out an outage rather than give up: the change stays `processing` meanwhile.
const effects = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

function setStatus(status: XpChangeOutcome['status'] | 'processing', detail: Record<string, unknown> = {}) {
  upsertMemo({ [XP_CHANGE_STATUS_MEMO]: status, ...detail });
}

/** One XP change: checked, applied with its audit row and event, then reward roles and announcement. */
export async function xpChange(input: XpChangeInput): Promise<XpChangeOutcome> {
  const { changeId, guildId, userId } = input;
  setStatus('processing');
  await checks.markXpChangeProcessing(changeId);
  try {
    await checks.checkXpTarget(guildId, userId);
  } catch (err) {
    const error = refusalCode(err);
    await checks.finishXpChange(changeId, { status: 'failed', error });
    setStatus('failed', { error });
    return { status: 'failed', error };
  }
  const result = await checks.applyXpChange(changeId);
  if (result.level !== result.previousLevel) await effects.syncRewardRoles(guildId, userId, result.level);
  if (result.level > result.previousLevel) await effects.announceLevelUp(changeId, guildId, userId, result.level);
  await checks.finishXpChange(changeId, { status: 'done', result });
  setStatus('done', { result });
  return { status: 'done', result };
}

function refusalCode(err: unknown): string {
  if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure && err.cause.type) return err.cause.type;
  throw err;
}
