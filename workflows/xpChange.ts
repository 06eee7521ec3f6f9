import { proxyActivities, proxyLocalActivities, upsertMemo } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { refusalCode } from './refusalCode.js';
import type { XpChangeResult } from '../db/levels/xpChanges.js';

export interface XpChangeInput {
  changeId: string;
  guildId: string;
  userId: string;
}

export type XpChangeOutcome = { status: 'done'; result: XpChangeResult } | { status: 'failed'; error: string };

/** Memo key the API reads with describe() while the run is open (status polling without a worker). */
export const XP_CHANGE_STATUS_MEMO = 'status';

// Short database steps run as local activities: no round trip through the server per step, which is
// most of the latency budget of a change (benchmark: xp-latency).
const steps = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '1 minute', maximumAttempts: 10 },
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
  try {
    await steps.beginXpChange(changeId, guildId, userId);
  } catch (err) {
    const error = refusalCode(err);
    await steps.finishXpChange(changeId, { status: 'failed', error });
    setStatus('failed', { error });
    return { status: 'failed', error };
  }
  const result = await steps.applyXpChange(changeId);
  if (result.level !== result.previousLevel) await effects.syncRewardRoles(guildId, userId, result.level);
  if (result.level > result.previousLevel) await effects.announceLevelUp(changeId, guildId, userId, result.level);
  await steps.finishXpChange(changeId, { status: 'done', result });
  setStatus('done', { result });
  return { status: 'done', result };
}
