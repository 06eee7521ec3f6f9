import { allHandlersFinished, condition, patched, proxyActivities } from '@temporalio/workflow';
import type { GiveawaysActivities } from '../activities/giveaways.js';
import type { GiveawayInput, GiveawayOutcome } from '../src/giveaways/ids.js';
import { DRAW_STEP, PLATFORM_EFFECT } from './activityProfiles.js';
import { applyDraw, finishCancelled } from './giveaway/drawEffects.js';
import { learnEnd, newGiveawayRun, setGiveawayHandlers, type GiveawayRun } from './giveaway/runState.js';

// Posting waits out a platform outage (the giveaway cannot run without its message); the draw is retried until stored.
const start = proxyActivities<GiveawaysActivities>(PLATFORM_EFFECT);
const draws = proxyActivities<GiveawaysActivities>(DRAW_STEP);

/**
 * One giveaway, `giveaway/<guildId>/<giveawayId>`: waits for its start on a durable timer, posts the message,
 * waits for its end (timer, or the `end` update), draws, then applies each draw (message edited, winners
 * announced and DMed) and stays open for `reroll` updates until the reroll window passes. A `cancel` signal
 * (the cancel relay, after a cancel committed) stops it before the draw. The run's state and its handlers:
 * workflows/giveaway/runState.ts; a draw's effects: workflows/giveaway/drawEffects.ts.
 *
 * Since `giveaway-end-batch` (docs/performance.md, "Giveaway ends") a run hands its end to the every-second
 * batch (workflows/giveawayEnds.ts), which draws and applies it without a workflow task: the run keeps no timer,
 * learns of the end from the database when a reroll comes, and completes on the `close` signal once the reroll
 * window passed. A manual end (the `end` update) still draws here; the row lock decides which of the two draws.
 */
export async function giveaway(input: GiveawayInput): Promise<GiveawayOutcome> {
  const run = newGiveawayRun(input);
  const cancel = () => finishCancelled(input, () => (run.phase = 'cancelled'));
  setGiveawayHandlers(input, run);

  if (!input.reopened) {
    const untilStart = input.startsAtMs - Date.now();
    if (untilStart > 0) await condition(() => run.cancelled, untilStart);
    if (run.cancelled) return cancel();
    run.activating = true;
    if (patched('giveaway-end-batch')) return endByBatch(input, run);
    const ended = await endByTimer(input, run);
    if (ended) return ended;
  }
  return rerollWindow(input, run);
}

/** Runs from before `giveaway-end-batch`: posted, then a timer (or the `end` update) until the draw; undefined once drawn. */
async function endByTimer(input: GiveawayInput, run: GiveawayRun): Promise<GiveawayOutcome | undefined> {
  const { guildId, giveawayId } = input;
  const cancel = () => finishCancelled(input, () => (run.phase = 'cancelled'));
  if ((await start.activateGiveaway(guildId, giveawayId)) === 'cancelled') return cancel();
  run.phase = 'active';
  const untilEnd = input.endsAtMs - Date.now();
  if (untilEnd > 0) await condition(() => run.cancelled || run.endRequest !== undefined, untilEnd);
  if (run.cancelled) return cancel();
  run.endDrawing = true;
  const outcome = await draws.endGiveaway(guildId, giveawayId, run.endRequest ?? null);
  if (outcome.status === 'cancelled') return cancel();
  run.lastDraw = 1;
  run.ended = { drawNumber: 1 };
  run.phase = 'ended';
  run.applyQueue.push(1);
  return undefined;
}

/** The reroll window: apply each draw as it comes, until the window passes and no reroll is under way. */
async function rerollWindow({ guildId, giveawayId, rerollWindowMs }: GiveawayInput, run: GiveawayRun): Promise<GiveawayOutcome> {
  const windowEnds = Date.now() + rerollWindowMs;
  for (;;) {
    const next = run.applyQueue.shift();
    if (next !== undefined) {
      await applyDraw(guildId, giveawayId, next);
      continue;
    }
    const remaining = windowEnds - Date.now();
    if (remaining <= 0 || !(await condition(() => run.applyQueue.length > 0, remaining))) break;
  }
  await condition(() => allHandlersFinished() && !run.drawing);
  for (let next = run.applyQueue.shift(); next !== undefined; next = run.applyQueue.shift()) await applyDraw(guildId, giveawayId, next);
  return { status: 'ended', draws: run.lastDraw };
}

/**
 * Active until the batch, a manual end or a cancel ends it; no timer. The batch's draw is not announced to the run:
 * it stays here until a reroll looks it up or `close` (the reroll window passed) finishes it. The effects of a
 * batch's draw are the batch's; those of a manual end's draw and of rerolls are the run's.
 */
async function endByBatch(input: GiveawayInput, run: GiveawayRun): Promise<GiveawayOutcome> {
  const { guildId, giveawayId } = input;
  const cancel = () => finishCancelled(input, () => (run.phase = 'cancelled'));
  run.endsByBatch = true;
  if ((await start.activateGiveaway(guildId, giveawayId, 'batch')) === 'cancelled') return cancel();
  run.phase = 'active';
  while (run.phase === 'active') {
    await condition(() => run.cancelled || run.endRequest !== undefined || run.closing || run.phase !== 'active');
    if (run.phase !== 'active') break;
    if (run.cancelled) return cancel();
    if (run.endRequest === undefined) {
      // `close` comes only for a giveaway the batch ended; should the row say otherwise, the run waits on.
      await learnEnd(input, run);
      if (run.phase === 'active') run.closing = false;
      continue;
    }
    run.endDrawing = true;
    const outcome = await draws.endGiveaway(guildId, giveawayId, run.endRequest);
    if (outcome.status === 'cancelled') return cancel();
    run.lastDraw = Math.max(run.lastDraw, 1);
    run.ended = { drawNumber: 1 };
    run.phase = 'ended';
    // A manual end's effects come at once from here; a batch pass that finds them still queued repeats none.
    run.applyQueue.push(1);
  }
  for (;;) {
    const next = run.applyQueue.shift();
    if (next !== undefined) await applyDraw(guildId, giveawayId, next);
    else if (run.closing && allHandlersFinished() && !run.drawing) return { status: 'ended', draws: run.lastDraw };
    else await condition(() => run.applyQueue.length > 0 || (run.closing && allHandlersFinished() && !run.drawing));
  }
}
