import type { TemporalGateway } from '../core/temporal/gateway.js';
import { OPERATION } from '../core/temporal/searchAttributes.js';
import { giveawayEndDispatcherId, giveawayEndDispatcherWorkflow, giveawayEndsWakeSignal } from './ids.js';

/**
 * Tells the end dispatcher (workflows/giveawayEndDispatcher.ts) that an end comes in `dueInMs` (0: look now), starting
 * it if it is not running (signal-with-start: one action, started or not). Sent after the commit that makes a giveaway
 * active (activateGiveaway) and at each worker's start, so a dispatcher that Temporal lost, or one asleep past an end
 * written while it was out, runs a pass; a failure to send fails the caller, which is retried.
 */
export async function wakeEndDispatcher({ client, taskQueue }: TemporalGateway, dueInMs: number): Promise<void> {
  await client.workflow.signalWithStart(giveawayEndDispatcherWorkflow.name, {
    workflowId: giveawayEndDispatcherId(taskQueue),
    taskQueue,
    args: [{}],
    signal: giveawayEndsWakeSignal,
    signalArgs: [Math.max(0, Math.round(dueInMs))],
    typedSearchAttributes: [{ key: OPERATION, value: 'giveaways.ends' }],
    staticSummary: 'Ends batch-ended giveaways: asleep until the earliest end',
  });
}

/** The worker's start: a pass for whatever came due while no dispatcher was running or no worker polled. */
export const wakeEndDispatcherAtStart = (temporal: TemporalGateway) => wakeEndDispatcher(temporal, 0);
