import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { ScenarioContext } from './context.js';

export interface TemporalCeilingResult {
  scenario: 'temporal-ceiling';
  workflows: number;
  /** Workflows started and completed per second with one worker, by kind. */
  workflowsPerSecond: { empty: number; oneActivity: number };
}

const WORKFLOWS = 1_000;
const STARTS_AT_ONCE = 50;

/**
 * 1,000 empty workflows, then 1,000 with one no-op activity, all started (50 starts at a time) on a task
 * queue of their own and run by one worker, timed until the last completes: the rate the Temporal server completes workflows at here. A webhook delivery is at
 * least one workflow, so this bounds webhook-throughput.
 */
export async function runTemporalCeiling(ctx: ScenarioContext): Promise<TemporalCeilingResult> {
  const taskQueue = `ceiling-${randomUUID()}`;
  const connection = await NativeConnection.connect({ address: ctx.temporalAddress });
  const worker = await Worker.create({
    connection,
    namespace: ctx.temporal.client.options.namespace,
    taskQueue,
    workflowsPath: fileURLToPath(new URL('./ceilingWorkflows.ts', import.meta.url)),
    activities: { async noop() {} },
  });
  const running = worker.run();
  try {
    const rate = async (workflowType: string) => {
      const started = performance.now();
      const handles = [];
      for (let i = 0; i < WORKFLOWS; i += STARTS_AT_ONCE) {
        const start = () => ctx.temporal.client.workflow.start(workflowType, { taskQueue, workflowId: `${taskQueue}/${randomUUID()}` });
        handles.push(...(await Promise.all(Array.from({ length: STARTS_AT_ONCE }, start))));
      }
      await Promise.all(handles.map((h) => h.result()));
      return Math.round(WORKFLOWS / ((performance.now() - started) / 1000));
    };
    return {
      scenario: 'temporal-ceiling',
      workflows: WORKFLOWS,
      workflowsPerSecond: { empty: await rate('emptyWorkflow'), oneActivity: await rate('oneActivityWorkflow') },
    };
  } finally {
    worker.shutdown();
    await running;
    await connection.close();
  }
}
