import { wakeDispatcher, type Dispatcher, type Due } from '../core/temporal/dispatcherWake.js';
import type { TemporalGateway } from '../core/temporal/gateway.js';
import { giveawayEndDispatcherId, giveawayEndDispatcherWorkflow, giveawayEndsWakeSignal } from './ids.js';

const DISPATCHER: Dispatcher = {
  workflow: giveawayEndDispatcherWorkflow,
  workflowId: giveawayEndDispatcherId,
  wake: giveawayEndsWakeSignal,
  operation: 'giveaways.ends',
  summary: 'Ends batch-ended giveaways: asleep until the earliest end',
};

/**
 * Tells the end dispatcher (workflows/giveawayEndDispatcher.ts) that an end comes when `due` (`{ inMs: 0 }`: look
 * now), starting it if it is not running (signal-with-start: one action, started or not). Sent after the commit that
 * makes a giveaway active (activateGiveaway) and at each worker's start, so a dispatcher that Temporal lost, or one
 * asleep past an end written while it was out, runs a pass; a failure to send fails the caller, which is retried.
 */
export const wakeEndDispatcher = (temporal: TemporalGateway, due: Due) => wakeDispatcher(temporal, DISPATCHER, due);

/** The worker's start: a pass for whatever came due while no dispatcher was running or no worker polled. */
export const wakeEndDispatcherAtStart = (temporal: TemporalGateway) => wakeEndDispatcher(temporal, { inMs: 0 });
