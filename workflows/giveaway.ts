import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  patched,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import type { GiveawaysActivities } from '../activities/giveaways.js';
import {
  giveawayCancelSignal as cancelSignal,
  giveawayCloseSignal as closeSignal,
  giveawayEndUpdate as endUpdate,
  giveawayRerollUpdate as rerollUpdate,
  type DrawActor,
  type DrawRef,
  type GiveawayInput,
  type GiveawayOutcome,
  type RerollRequest,
} from '../src/giveaways/ids.js';
import { BOUNDED_PLATFORM_EFFECT, DRAW_STEP, PLATFORM_EFFECT } from './activityProfiles.js';
import { activityFailureType, refusalCode } from './refusalCode.js';


// Posting waits out a platform outage (the giveaway cannot run without its message); the draw is retried until stored.
const start = proxyActivities<GiveawaysActivities>(PLATFORM_EFFECT);
const draws = proxyActivities<GiveawaysActivities>(DRAW_STEP);
// The draw already stands: an effect that keeps failing is recorded among the queued actions, the others still run.
const effects = proxyActivities<GiveawaysActivities>(BOUNDED_PLATFORM_EFFECT);

type Phase = 'scheduled' | 'active' | 'ended' | 'cancelled';

const wrongState = (code: 'GIVEAWAY_NOT_ACTIVE' | 'GIVEAWAY_NOT_ENDED', phase: Phase) =>
  ApplicationFailure.create({ message: `The giveaway is ${phase}.`, type: code, nonRetryable: true, details: [{ status: phase }] });

/**
 * One giveaway, `giveaway/<guildId>/<giveawayId>`: waits for its start on a durable timer, posts the message,
 * waits for its end (timer, or the `end` update), draws, then applies each draw (message edited, winners
 * announced and DMed) and stays open for `reroll` updates until the reroll window passes. A `cancel` signal
 * (the cancel relay, after a cancel committed) stops it before the draw.
 *
 * Since `giveaway-end-batch` (docs/performance.md, "Giveaway ends") a run hands its end to the every-second
 * batch (workflows/giveawayEnds.ts), which draws and applies it without a workflow task: the run keeps no timer,
 * learns of the end from the database when a reroll comes, and completes on the `close` signal once the reroll
 * window passed. A manual end (the `end` update) still draws here; the row lock decides which of the two draws.
 */
export async function giveaway(input: GiveawayInput): Promise<GiveawayOutcome> {
  const { guildId, giveawayId } = input;
  let phase: Phase = input.reopened ? 'ended' : 'scheduled';
  let lastDraw = input.reopened?.lastDrawNumber ?? 0;
  let endRequest: DrawActor | undefined;
  let ended: DrawRef | undefined;
  let cancelled = false;
  let drawing = false;
  // The message is being posted: the database may already say `active`, so an end is accepted and waits for it.
  let activating = false;
  // The end's draw is under way: the database may already say `ended`, so a reroll is accepted and waits for it.
  let endDrawing = false;
  // The every-second batch ends this run's giveaway (patch giveaway-end-batch); `closing`: its reroll window passed.
  let endsByBatch = false;
  let closing = false;
  let learning: Promise<void> | undefined;
  const applyQueue: number[] = [];

  /** A batch-ended run: takes the end from the database when the batch drew it (the run is not told). */
  const learnEnd = () =>
    (learning ??= start.giveawayEndState(guildId, giveawayId).then((state) => {
      learning = undefined;
      if (phase !== 'active' || state.status !== 'ended') return;
      lastDraw = Math.max(lastDraw, state.draws);
      ended ??= { drawNumber: 1 };
      phase = 'ended';
    }));

  setHandler(cancelSignal, () => void (cancelled = true));
  setHandler(closeSignal, () => void (closing = true));
  setHandler(
    endUpdate,
    async (actor) => {
      endRequest ??= actor;
      await condition(() => ended !== undefined || phase === 'cancelled');
      if (!ended) throw wrongState('GIVEAWAY_NOT_ACTIVE', phase);
      return ended;
    },
    {
      validator: (_actor: DrawActor) => {
        if (phase !== 'active' && !activating) throw wrongState('GIVEAWAY_NOT_ACTIVE', phase);
      },
    },
  );
  setHandler(
    rerollUpdate,
    async (request) => {
      if (endsByBatch && phase === 'active' && !endDrawing) {
        await learnEnd();
        if (phase === 'active' && !endDrawing) throw wrongState('GIVEAWAY_NOT_ENDED', phase);
      }
      await condition(() => phase !== 'active' && !drawing);
      if (phase !== 'ended') throw wrongState('GIVEAWAY_NOT_ENDED', phase);
      drawing = true;
      try {
        const drawNumber = lastDraw + 1;
        const outcome = await draws.rerollGiveaway(guildId, giveawayId, drawNumber, request).catch(asUpdateFailure);
        lastDraw = drawNumber;
        applyQueue.push(drawNumber);
        return { drawNumber: outcome.drawNumber };
      } finally {
        drawing = false;
      }
    },
    {
      validator: (_request: RerollRequest) => {
        // A batch-ended run in `active` may be ended in the database already: the handler looks.
        if (phase !== 'ended' && !endDrawing && !(endsByBatch && phase === 'active')) throw wrongState('GIVEAWAY_NOT_ENDED', phase);
      },
    },
  );

  /**
   * Active until the batch, a manual end or a cancel ends it; no timer. The batch's draw is not announced to the run:
   * it stays here until a reroll looks it up or `close` (the reroll window passed) finishes it. The effects of a
   * batch's draw are the batch's; those of a manual end's draw and of rerolls are the run's.
   */
  async function endByBatch(): Promise<GiveawayOutcome> {
    endsByBatch = true;
    if ((await start.activateGiveaway(guildId, giveawayId, 'batch')) === 'cancelled') return finishCancelled(input, () => (phase = 'cancelled'));
    phase = 'active';
    while (phase === 'active') {
      await condition(() => cancelled || endRequest !== undefined || closing || phase !== 'active');
      if (phase !== 'active') break;
      if (cancelled) return finishCancelled(input, () => (phase = 'cancelled'));
      if (endRequest === undefined) {
        // `close` comes only for a giveaway the batch ended; should the row say otherwise, the run waits on.
        await learnEnd();
        if (phase === 'active') closing = false;
        continue;
      }
      endDrawing = true;
      const outcome = await draws.endGiveaway(guildId, giveawayId, endRequest);
      if (outcome.status === 'cancelled') return finishCancelled(input, () => (phase = 'cancelled'));
      lastDraw = Math.max(lastDraw, 1);
      ended = { drawNumber: 1 };
      phase = 'ended';
      // A manual end's effects come at once from here; a batch pass that finds them still queued repeats none.
      applyQueue.push(1);
    }
    for (;;) {
      const next = applyQueue.shift();
      if (next !== undefined) await applyDraw(guildId, giveawayId, next);
      else if (closing && allHandlersFinished() && !drawing) return { status: 'ended', draws: lastDraw };
      else await condition(() => applyQueue.length > 0 || (closing && allHandlersFinished() && !drawing));
    }
  }

  if (!input.reopened) {
    const untilStart = input.startsAtMs - Date.now();
    if (untilStart > 0) await condition(() => cancelled, untilStart);
    if (cancelled) return finishCancelled(input, () => (phase = 'cancelled'));
    activating = true;
    if (patched('giveaway-end-batch')) return endByBatch();
    if ((await start.activateGiveaway(guildId, giveawayId)) === 'cancelled') return finishCancelled(input, () => (phase = 'cancelled'));
    phase = 'active';
    const untilEnd = input.endsAtMs - Date.now();
    if (untilEnd > 0) await condition(() => cancelled || endRequest !== undefined, untilEnd);
    if (cancelled) return finishCancelled(input, () => (phase = 'cancelled'));
    endDrawing = true;
    const outcome = await draws.endGiveaway(guildId, giveawayId, endRequest ?? null);
    if (outcome.status === 'cancelled') return finishCancelled(input, () => (phase = 'cancelled'));
    lastDraw = 1;
    ended = { drawNumber: 1 };
    phase = 'ended';
    applyQueue.push(1);
  }

  // The reroll window: apply each draw as it comes, until the window passes and no reroll is under way.
  const windowEnds = Date.now() + input.rerollWindowMs;
  for (;;) {
    const next = applyQueue.shift();
    if (next !== undefined) {
      await applyDraw(guildId, giveawayId, next);
      continue;
    }
    const remaining = windowEnds - Date.now();
    if (remaining <= 0 || !(await condition(() => applyQueue.length > 0, remaining))) break;
  }
  await condition(() => allHandlersFinished() && !drawing);
  for (let next = applyQueue.shift(); next !== undefined; next = applyQueue.shift()) await applyDraw(guildId, giveawayId, next);
  return { status: 'ended', draws: lastDraw };
}

/** A cancelled giveaway: its message (when posted) shows the cancel. */
async function finishCancelled(input: GiveawayInput, mark?: () => void): Promise<GiveawayOutcome> {
  mark?.();
  await effects.editGiveawayMessage(input.guildId, input.giveawayId, null).catch((err: unknown) => void activityFailureType(err));
  return { status: 'cancelled', draws: 0 };
}

/** The bot side of a stored draw: message edited, winners announced, each winner DMed; a failure is recorded, the rest go on. */
async function applyDraw(guildId: string, giveawayId: number, drawNumber: number): Promise<void> {
  const attempt = async (type: 'edit' | 'announce' | 'dm', effect: () => Promise<unknown>, userId?: string) => {
    try {
      await effect();
    } catch (err) {
      await effects.failGiveawayAction(guildId, giveawayId, type, drawNumber, activityFailureType(err), userId);
    }
  };
  await attempt('edit', () => effects.editGiveawayMessage(guildId, giveawayId, drawNumber));
  await attempt('announce', () => effects.announceDraw(guildId, giveawayId, drawNumber));
  for (const userId of await effects.drawWinnersToDm(guildId, giveawayId, drawNumber)) {
    await attempt('dm', () => effects.dmWinner(guildId, giveawayId, drawNumber, userId), userId);
  }
}

/** A refusal of the reroll's activity (state changed meanwhile, not a winner) fails the update, not the run. */
function asUpdateFailure(err: unknown): never {
  const code = refusalCode(err);
  throw ApplicationFailure.create({ message: err instanceof ActivityFailure ? (err.cause?.message ?? code) : code, type: code, nonRetryable: true });
}
