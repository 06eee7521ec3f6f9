import { patched, proxyActivities, proxyLocalActivities, upsertMemo } from '@temporalio/workflow';
import type { LevelsActivities } from '../activities/levels.js';
import { XP_CHANGE_STATUS_MEMO, type XpChangeInput, type XpChangeOutcome } from '../src/levels/ids.js';
import { DATABASE_STEP, PLATFORM_EFFECT } from './activityProfiles.js';
import { refusalCode } from './refusalCode.js';

const steps = proxyLocalActivities<LevelsActivities>(DATABASE_STEP);
// The change stays `processing` while the platform is out.
const effects = proxyActivities<LevelsActivities>(PLATFORM_EFFECT);

const PLATFORM_REFUSAL_PATCH = 'xp-change-platform-refusal';
const ONE_STEP_PATCH = 'xp-change-one-step';

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
  setStatus('processing');
  return patched(ONE_STEP_PATCH) ? inOneStep(input) : stepByStep(input);
}

async function failed(changeId: string, err: unknown): Promise<XpChangeOutcome> {
  const error = refusalCode(err);
  await steps.finishXpChange(changeId, { status: 'failed', error });
  setStatus('failed', { error });
  return { status: 'failed', error };
}

/**
 * A change whose level stays needs one local activity and one workflow task; a level move adds one activity for
 * its platform effects (refusals returned, not thrown) and one workflow task after it.
 */
async function inOneStep({ changeId, guildId, userId }: XpChangeInput): Promise<XpChangeOutcome> {
  let step: Awaited<ReturnType<typeof steps.runXpChange>>;
  try {
    step = await steps.runXpChange(changeId, guildId, userId);
  } catch (err) {
    return failed(changeId, err);
  }
  const { result, finished } = step;
  if (!finished) {
    await effects.levelMoveEffects({ changeId, guildId, userId, ...result });
    await steps.finishXpChange(changeId, { status: 'done', result });
  }
  setStatus('done', { result });
  return { status: 'done', result };
}

/** Runs started before `xp-change-one-step`: checked, applied and finished in three local activities, effects in turn. */
async function stepByStep({ changeId, guildId, userId }: XpChangeInput): Promise<XpChangeOutcome> {
  try {
    await steps.beginXpChange(changeId, guildId, userId);
  } catch (err) {
    return failed(changeId, err);
  }
  const result = await steps.applyXpChange(changeId);
  if (result.level !== result.previousLevel) await unlessRefused(effects.syncRewardRoles(guildId, userId, result.level));
  if (result.level > result.previousLevel) await unlessRefused(effects.announceLevelUp(changeId, guildId, userId, result.level));
  await steps.finishXpChange(changeId, { status: 'done', result });
  setStatus('done', { result });
  return { status: 'done', result };
}
