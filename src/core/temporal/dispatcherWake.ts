import type { SignalDefinition } from '@temporalio/client';
import type { TemporalGateway } from './gateway.js';
import { OPERATION } from './searchAttributes.js';
import type { WorkflowRef } from './workflowRef.js';

/** A long-lived dispatcher (one run per task queue) that sleeps until its next pass and takes a `wake` signal. */
export interface Dispatcher {
  workflow: WorkflowRef<(input: Record<string, never>) => Promise<void>>;
  workflowId: (taskQueue: string) => string;
  wake: SignalDefinition<[dueInMs: number], 'wake'>;
  operation: string;
  summary: string;
}

/**
 * Tells a dispatcher to run a pass in `dueInMs` (0: now), starting it if it is not running (signal-with-start: one
 * action, started or not); a pass planned sooner stays. A failure to send fails the caller, which is retried.
 */
export async function wakeDispatcher({ client, taskQueue }: TemporalGateway, dispatcher: Dispatcher, dueInMs: number): Promise<void> {
  await client.workflow.signalWithStart(dispatcher.workflow.name, {
    workflowId: dispatcher.workflowId(taskQueue),
    taskQueue,
    args: [{}],
    signal: dispatcher.wake,
    signalArgs: [Math.max(0, Math.round(dueInMs))],
    typedSearchAttributes: [{ key: OPERATION, value: dispatcher.operation }],
    staticSummary: dispatcher.summary,
  });
}
