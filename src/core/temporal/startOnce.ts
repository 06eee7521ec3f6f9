import { WorkflowExecutionAlreadyStartedError, type WorkflowStartOptions } from '@temporalio/client';
import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import type { TemporalGateway } from './gateway.js';

/**
 * Starts a run whose id derives from its operation: a repeated start (the api right after its commit,
 * then the start relay) finds the running one, and a closed run is never run again.
 */
export async function startOnce(
  { client, taskQueue }: TemporalGateway,
  workflowType: string,
  options: Omit<WorkflowStartOptions, 'taskQueue' | 'workflowIdConflictPolicy' | 'workflowIdReusePolicy'>,
): Promise<void> {
  try {
    await client.workflow.start(workflowType, {
      ...options,
      taskQueue,
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    } as WorkflowStartOptions);
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
