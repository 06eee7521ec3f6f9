import type { Kysely } from 'kysely';
import { claimDueGiveaways, earliestBatchEnd, listQueuedEndActions, type QueuedEndAction } from '../../db/giveaways/batchEnds.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../core/clock.js';
import { inParallel } from '../core/inParallel.js';
import type { Logger } from '../core/logger.js';
import type { Platform } from '../core/platform.js';
import type { TemporalGateway } from '../core/temporal/gateway.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { startFanoutsOrLeaveToRelay } from '../events/outbox.js';
import { runDraw } from './drawGiveaway.js';

export interface EndBatchDeps {
  db: Kysely<Database>;
  platform: Platform;
  clock: Clock;
  logger: Logger;
  temporal: TemporalGateway;
}

/** How much one pass takes on: rows claimed or read per round, and how many giveaways are worked on at once. */
export interface EndBatchLimits {
  giveaways: number;
  actions: number;
  concurrency: number;
}

export const END_BATCH_LIMITS: EndBatchLimits = { giveaways: 500, actions: 2_000, concurrency: 16 };

const noop = () => {};

/**
 * Draws every batch-ended giveaway whose end is due (claimed `limit` at a time): each through the use case a
 * workflow's end runs (runDraw: the draw with its seed and algorithm, the audit row, `giveaways.ended`, the
 * queued effects, in one transaction that a concurrent manual end's draw cannot repeat), then starts the events'
 * fan-outs together. A crash leaves the undrawn ones active and due: the next pass draws them, and a giveaway
 * drawn meanwhile answers with its stored draw, and one whose draw failed (the platform unreachable) waits for the
 * next pass while the others go on. `onDone` is called after each giveaway (the activity's heartbeat).
 */
export async function drawDueGiveaways(deps: EndBatchDeps, limits: EndBatchLimits, onDone: () => void = noop): Promise<{ claimed: number; drawn: number }> {
  const due = await claimDueGiveaways(deps.db, deps.clock.now(), limits.giveaways);
  const events: OutboxEvent[] = [];
  let failed = 0;
  await inParallel(due, limits.concurrency, async (g) => {
    try {
      const drawn = await runDraw(deps.db, deps.platform, { ...g, drawNumber: 1, actor: null, at: deps.clock.now() });
      events.push(...drawn.events);
    } catch (err) {
      // Still active and due: the next pass draws it; the others of this pass go on.
      failed++;
      deps.logger.warn({ err, guildId: g.guildId, giveawayId: g.giveawayId }, 'giveaway draw failed; the next pass retries it');
    }
    onDone();
  });
  await startFanoutsOrLeaveToRelay(deps, events);
  return { claimed: due.length, drawn: due.length - failed };
}

/**
 * Applies the queued effects of batch ends: a giveaway's in order (post edited, announcement, each DM), several
 * giveaways at once. `apply` finishes each action's row and says so (true), or leaves it queued for a later pass
 * (false: the platform is out), so a repeat after a crash finds the finished ones done. `onDone` is called after
 * each giveaway's actions. Returns how many were tried and how many finished.
 */
export async function applyQueuedEndActions(
  db: Kysely<Database>,
  apply: (action: QueuedEndAction) => Promise<boolean>,
  limits: EndBatchLimits,
  onDone: () => void = noop,
): Promise<{ tried: number; applied: number }> {
  const actions = await listQueuedEndActions(db, limits.actions);
  const byGiveaway = new Map<string, QueuedEndAction[]>();
  for (const a of actions) {
    const key = `${a.guildId}/${a.giveawayId}`;
    byGiveaway.set(key, [...(byGiveaway.get(key) ?? []), a]);
  }
  let applied = 0;
  await inParallel([...byGiveaway.values()], limits.concurrency, async (ofOne) => {
    for (const a of ofOne) if (await apply(a)) applied++;
    onDone();
  });
  return { tried: actions.length, applied };
}

/**
 * What the end dispatcher plans its next pass from, read after a pass: whether something due is still there (a
 * giveaway past its end, undrawn; an effect still queued) and how long until the earliest end not yet due.
 */
export async function nextEndPlan(db: Kysely<Database>, now: Date): Promise<{ left: boolean; nextEndInMs: number | null }> {
  const [earliest, queued] = await Promise.all([earliestBatchEnd(db), listQueuedEndActions(db, 1)]);
  const inMs = earliest === null ? null : earliest.getTime() - now.getTime();
  return { left: queued.length > 0 || (inMs !== null && inMs <= 0), nextEndInMs: inMs !== null && inMs > 0 ? inMs : null };
}
