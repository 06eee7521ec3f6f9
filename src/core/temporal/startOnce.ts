import { WorkflowExecutionAlreadyStartedError, type WorkflowStartOptions } from '@temporalio/client';
import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import { workflowStarts } from '../metrics.js';
import type { TemporalGateway } from './gateway.js';
import type { Workflow, WorkflowRef } from './workflowRef.js';

export type StartOptions<W extends Workflow> = Omit<
  WorkflowStartOptions<W>,
  'taskQueue' | 'workflowIdConflictPolicy' | 'workflowIdReusePolicy'
>;

/**
 * Starts a run whose id derives from its operation: a repeated start (the api right after its commit,
 * then the start relay) finds the running one, and a closed run is never run again unless `rerunClosed`
 * (an operator's retry of a finished delivery).
 */
export async function startOnce<W extends Workflow>(
  { client, taskQueue }: TemporalGateway,
  workflow: WorkflowRef<W>,
  options: StartOptions<W>,
  { rerunClosed = false } = {},
): Promise<void> {
  try {
    await client.workflow.start<W>(workflow.name, {
      ...options,
      taskQueue,
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      workflowIdReusePolicy: rerunClosed ? WorkflowIdReusePolicy.ALLOW_DUPLICATE : WorkflowIdReusePolicy.REJECT_DUPLICATE,
    } as WorkflowStartOptions<W>);
    // A start that found its run still open also lands here (the id conflict policy uses the existing run).
    workflowStarts.inc({ workflow_type: workflow.name, outcome: 'started' });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    workflowStarts.inc({ workflow_type: workflow.name, outcome: 'closed_already' });
  }
}
