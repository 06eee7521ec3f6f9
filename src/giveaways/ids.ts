import type { SignalDefinition, UpdateDefinition } from '@temporalio/common';
import type { DispatcherInput, DispatcherWake } from '../core/temporal/dispatcherProtocol.js';
import type { WorkflowRef } from '../core/temporal/workflowRef.js';

// Pure: the workflows import this file, so it holds ids and types only.

/**
 * How long an ended giveaway's workflow stays open for rerolls. A reroll after it starts the workflow again
 * (update-with-start), so the window bounds how long a run holds Temporal storage, not what callers can do.
 */
export const REROLL_WINDOW_MS = 7 * 24 * 3_600_000;

export interface GiveawayInput {
  guildId: string;
  giveawayId: number;
  startsAtMs: number;
  endsAtMs: number;
  rerollWindowMs: number;
  /** Set when a reroll starts the workflow again after its window: the giveaway ended with this many draws. */
  reopened?: { lastDrawNumber: number };
}

export interface GiveawayOutcome {
  status: 'ended' | 'cancelled';
  draws: number;
}

/**
 * Who asked for an end or a reroll (for the audit row): the API key and its creator, a member's slash command (no
 * key), or a manager in the web console (`console`, no key). Runs recorded before `console` existed lack it.
 */
export interface DrawActor {
  apiKeyId: number | null;
  userId: string | null;
  requestId: string | null;
  console?: boolean;
}

/** A reroll as asked (src/giveaways/rerollRules.ts): the draw resolves its defaults against the winners of its time. */
export interface RerollRequest {
  count?: number;
  replaceUserIds?: string[];
  actor: DrawActor;
}

export interface DrawRef {
  drawNumber: number;
}

export interface DrawOutcome {
  status: 'ended' | 'cancelled';
  drawNumber: number;
  winnerIds: string[];
}

/** A giveaway as its database row stands, for a workflow whose end the batch may have drawn. */
export interface GiveawayEndState {
  status: 'scheduled' | 'active' | 'ended' | 'cancelled';
  draws: number;
}

/**
 * One pass of the batch of ends: giveaways drawn, queued effects tried, and what the end dispatcher plans from:
 * `left`, something due is still there (a draw or an effect the platform's outage held back); `applied`, effects
 * finished (done or recorded as failed); `nextEndInMs`, when the earliest end not yet due comes, by the pass's
 * clock (null: none), and `nextEndAt`, the same on Temporal's clock (passes from before it recorded the time left
 * only). Runs from before the dispatcher (the `giveawayEnds` schedule) recorded the first two only.
 */
export interface EndBatchResult {
  drawn: number;
  effects: number;
  applied?: number;
  left?: boolean;
  nextEndInMs?: number | null;
  nextEndAt?: number | null;
}

export const giveawayWorkflow: WorkflowRef<(input: GiveawayInput) => Promise<GiveawayOutcome>> = { name: 'giveaway' };

/** The every-second schedule's workflow, retired with its schedule; registered still for the runs it started before. */
export const giveawayEndsWorkflow: WorkflowRef<() => Promise<EndBatchResult>> = { name: 'giveawayEnds' };

/** The one long-lived run that ends batch-ended giveaways: asleep on a timer until the earliest end, or with none. */
export const giveawayEndDispatcherWorkflow: WorkflowRef<(input: DispatcherInput) => Promise<void>> = { name: 'giveawayEndDispatcher' };

/** One dispatcher per task queue: the workers of one deployment share it (tests and benches, each their own). */
export const giveawayEndDispatcherId = (taskQueue: string) => `giveaways/end-dispatcher/${taskQueue}`;

export const giveawayWorkflowId = (guildId: string, giveawayId: number) => `giveaway/${guildId}/${giveawayId}`;

// The giveaway workflow's updates and signals, declared once with their arguments and results: the workflow handles
// these objects and the api and the relays send them, so a changed argument fails `tsc` on both sides. They are the
// plain objects defineUpdate and defineSignal return (their type brands exist for the compiler only), written out
// because this file must not load the workflow runtime.
export const giveawayEndUpdate = { type: 'update', name: 'end' } as UpdateDefinition<DrawRef, [DrawActor], 'end'>;
export const giveawayRerollUpdate = { type: 'update', name: 'reroll' } as UpdateDefinition<DrawRef, [RerollRequest], 'reroll'>;
export const giveawayCancelSignal = { type: 'signal', name: 'cancel' } as SignalDefinition<[], 'cancel'>;
/** To a batch-ended giveaway's workflow once its reroll window passed (src/giveaways/cancelRelay.ts): it completes. */
export const giveawayCloseSignal = { type: 'signal', name: 'close' } as SignalDefinition<[], 'close'>;
/** To the end dispatcher: an end comes in `dueInMs` or at `dueAt` (0: look now); it wakes sooner if that is before its timer. */
export const giveawayEndsWakeSignal = { type: 'signal', name: 'wake' } as DispatcherWake;
