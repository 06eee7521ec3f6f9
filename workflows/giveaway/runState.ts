import { ActivityFailure, ApplicationFailure, condition, proxyActivities, setHandler } from '@temporalio/workflow';
import type { GiveawaysActivities } from '../../activities/giveaways.js';
import {
  giveawayCancelSignal as cancelSignal,
  giveawayCloseSignal as closeSignal,
  giveawayEndUpdate as endUpdate,
  giveawayRerollUpdate as rerollUpdate,
  type DrawActor,
  type DrawRef,
  type GiveawayInput,
  type RerollRequest,
} from '../../src/giveaways/ids.js';
import { DRAW_STEP, PLATFORM_EFFECT } from '../activityProfiles.js';
import { refusalCode } from '../refusalCode.js';

const start = proxyActivities<GiveawaysActivities>(PLATFORM_EFFECT);
const draws = proxyActivities<GiveawaysActivities>(DRAW_STEP);

export type Phase = 'scheduled' | 'active' | 'ended' | 'cancelled';

/** What one giveaway run knows, shared by its main path (workflows/giveaway.ts) and its signal and update handlers. */
export interface GiveawayRun {
  phase: Phase;
  lastDraw: number;
  endRequest: DrawActor | undefined;
  ended: DrawRef | undefined;
  cancelled: boolean;
  drawing: boolean;
  /** The message is being posted: the database may already say `active`, so an end is accepted and waits for it. */
  activating: boolean;
  /** The end's draw is under way: the database may already say `ended`, so a reroll is accepted and waits for it. */
  endDrawing: boolean;
  /** The every-second batch ends this run's giveaway (patch giveaway-end-batch); `closing`: its reroll window passed. */
  endsByBatch: boolean;
  closing: boolean;
  learning: Promise<void> | undefined;
  /** Draws stored and not yet applied on the platform, in order. */
  applyQueue: number[];
}

export const newGiveawayRun = (input: GiveawayInput): GiveawayRun => ({
  phase: input.reopened ? 'ended' : 'scheduled',
  lastDraw: input.reopened?.lastDrawNumber ?? 0,
  endRequest: undefined,
  ended: undefined,
  cancelled: false,
  drawing: false,
  activating: false,
  endDrawing: false,
  endsByBatch: false,
  closing: false,
  learning: undefined,
  applyQueue: [],
});

export const wrongState = (code: 'GIVEAWAY_NOT_ACTIVE' | 'GIVEAWAY_NOT_ENDED', phase: Phase) =>
  ApplicationFailure.create({ message: `The giveaway is ${phase}.`, type: code, nonRetryable: true, details: [{ status: phase }] });

/** A batch-ended run: takes the end from the database when the batch drew it (the run is not told). */
export const learnEnd = ({ guildId, giveawayId }: GiveawayInput, run: GiveawayRun) =>
  (run.learning ??= start.giveawayEndState(guildId, giveawayId).then((state) => {
    run.learning = undefined;
    if (run.phase !== 'active' || state.status !== 'ended') return;
    run.lastDraw = Math.max(run.lastDraw, state.draws);
    run.ended ??= { drawNumber: 1 };
    run.phase = 'ended';
  }));

/**
 * The run's signals (`cancel`, `close`) and updates (`end`, `reroll`); their validators refuse by the run's phase,
 * letting through what the database may already have moved past (an end while the message is posted, a reroll while
 * the end is drawn or of a batch-ended run, which the handler looks up).
 */
export function setGiveawayHandlers(input: GiveawayInput, run: GiveawayRun): void {
  const { guildId, giveawayId } = input;
  setHandler(cancelSignal, () => void (run.cancelled = true));
  setHandler(closeSignal, () => void (run.closing = true));
  setHandler(
    endUpdate,
    async (actor) => {
      run.endRequest ??= actor;
      await condition(() => run.ended !== undefined || run.phase === 'cancelled');
      if (!run.ended) throw wrongState('GIVEAWAY_NOT_ACTIVE', run.phase);
      return run.ended;
    },
    {
      validator: (_actor: DrawActor) => {
        if (run.phase !== 'active' && !run.activating) throw wrongState('GIVEAWAY_NOT_ACTIVE', run.phase);
      },
    },
  );
  setHandler(
    rerollUpdate,
    async (request) => {
      if (run.endsByBatch && run.phase === 'active' && !run.endDrawing) {
        await learnEnd(input, run);
        if (run.phase === 'active' && !run.endDrawing) throw wrongState('GIVEAWAY_NOT_ENDED', run.phase);
      }
      await condition(() => run.phase !== 'active' && !run.drawing);
      if (run.phase !== 'ended') throw wrongState('GIVEAWAY_NOT_ENDED', run.phase);
      run.drawing = true;
      try {
        const drawNumber = run.lastDraw + 1;
        const outcome = await draws.rerollGiveaway(guildId, giveawayId, drawNumber, request).catch(asUpdateFailure);
        run.lastDraw = drawNumber;
        run.applyQueue.push(drawNumber);
        return { drawNumber: outcome.drawNumber };
      } finally {
        run.drawing = false;
      }
    },
    {
      validator: (_request: RerollRequest) => {
        // A batch-ended run in `active` may be ended in the database already: the handler looks.
        if (run.phase !== 'ended' && !run.endDrawing && !(run.endsByBatch && run.phase === 'active')) throw wrongState('GIVEAWAY_NOT_ENDED', run.phase);
      },
    },
  );
}

/** A refusal of the reroll's activity (state changed meanwhile, not a winner) fails the update, not the run. */
function asUpdateFailure(err: unknown): never {
  const code = refusalCode(err);
  throw ApplicationFailure.create({ message: err instanceof ActivityFailure ? (err.cause?.message ?? code) : code, type: code, nonRetryable: true });
}
