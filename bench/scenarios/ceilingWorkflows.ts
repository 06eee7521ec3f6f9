import { proxyActivities } from '@temporalio/workflow';

// The smallest workflows there are, for the temporal-ceiling scenario: what the Temporal server itself
// completes per second on this machine, whatever the product's workflows do.

const { noop } = proxyActivities<{ noop(): Promise<void> }>({ startToCloseTimeout: '10 seconds' });

export async function emptyWorkflow(): Promise<void> {}

export async function oneActivityWorkflow(): Promise<void> {
  await noop();
}
