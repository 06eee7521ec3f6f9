import type { DispatcherInput, DispatcherWake } from '../core/temporal/dispatcherProtocol.js';
import type { WorkflowRef } from '../core/temporal/workflowRef.js';

/** One board's pass: servers recounted, and snapshots dropped for servers that shrank below the threshold. */
export interface BoardRecount {
  recounted: number;
  dropped: number;
}

export interface RankRecountPass {
  levels: BoardRecount;
  invites: BoardRecount;
}

/** The one long-lived run that recounts the rank snapshots of changed servers: asleep with no timer while none changed. */
export const rankRecountDispatcherWorkflow: WorkflowRef<(input: DispatcherInput) => Promise<void>> = { name: 'rankRecountDispatcher' };

/** One dispatcher per task queue: the workers of one deployment share it (tests and benches, each their own). */
export const rankRecountDispatcherId = (taskQueue: string) => `ranks/recount-dispatcher/${taskQueue}`;

/** A snapshot changed (or a worker started): a pass in `dueInMs`, unless one is planned sooner. */
export const rankRecountWakeSignal = { type: 'signal', name: 'wake' } as DispatcherWake;

/**
 * How long a woken dispatcher waits before its pass: the minute the retired schedules recounted at, so the changes of a
 * busy minute are recounted together (one recount per server per minute at most, as before).
 */
export const RECOUNT_BATCH_MS = 60_000;
