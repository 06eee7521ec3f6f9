import type { SessionProgress } from './gatewayPositions.js';

/** One gateway dispatch waiting for its handling. */
export interface QueuedDispatch {
  t: string;
  s: number;
  d: unknown;
  shardId: number;
  /** The lane that keeps its order: its server's id (dispatchLane.ts), '' for events of none. */
  lane: string;
  /** When the bot received it (performance.now()), for the dispatch-to-commit latency. */
  receivedAt: number;
  /** Its gateway session's progress (gatewayPositions.ts), told when it is done with; none in the queue's own tests. */
  progress?: SessionProgress | null;
  /**
   * Handled ahead of every server's backlog, in slots of its own (`urgentConcurrency`): an interaction, whose answer
   * Discord wants within 3 s of the press.
   */
  urgent?: boolean;
  /**
   * Not counted toward `maxQueued`: work the bot makes itself (a member reconciliation), paced by its maker, that
   * must not stop the gateway from being read (heartbeat ACKs go unread on a paused socket).
   */
  unbounded?: boolean;
}

/** What became of a dispatch: handled, or given up for a failure that is not an outage. */
export type DispatchOutcome = 'handled' | 'failed';
