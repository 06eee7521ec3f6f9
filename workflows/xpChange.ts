import { patched, proxyActivities, proxyLocalActivities, upsertMemo } from '@temporalio/workflow';
import type { LevelsActivities } from '../activities/levels.js';
import { XP_CHANGE_STATUS_MEMO, type XpChangeInput, type XpChangeOutcome } from '../src/levels/ids.js';
import { DATABASE_STEP, PLATFORM_EFFECT } from './activityProfiles.js';
import { refusalCode } from './refusalCode.js';

const steps = proxyLocalActivities<LevelsActivities>(DATABASE_STEP);
// The change stays `processing` while the platform is out.
const effects = proxyActivities<LevelsActivities>(PLATFORM_EFFECT);

const PLATFORM_REFUSAL_PATCH = 'xp-change-platform-refusal';

/**
 * The XP stands when the platform refuses a reward role or the announcement for good (Discord: the bot lacks
 * Manage Roles or sits below the role); the refusal stays in the run's history. Outages are still retried.
 * Runs from before the Discord adapter could not get a refusal (the local platform never refuses).
 */
async function unlessRefused(effect: Promise<unknown>): Promise<void> {
  try {
    await effect;
  } catch (err) {
    if (!patched(PLATFORM_REFUSAL_PATCH)) throw err;
    refusalCode(err);
  }
}

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
  if (result.level !== result.previousLevel) await unlessRefused(effects.syncRewardRoles(guildId, userId, result.level));
  if (result.level > result.previousLevel) await unlessRefused(effects.announceLevelUp(changeId, guildId, userId, result.level));
  await steps.finishXpChange(changeId, { status: 'done', result });
  setStatus('done', { result });
  return { status: 'done', result };
}
