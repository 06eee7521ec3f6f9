import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { listUnstartedFlowRuns, markFlowRunStarted, type FlowRunRecord } from '../../db/flows/runs.js';
import type { Operation } from '../core/temporal/operation.js';
import type { PolledOperation } from '../core/temporal/polledStatus.js';
import type { WorkflowOf } from '../core/temporal/workflowRef.js';
import type { FlowRunBody } from './contract.js';
import { finishedRunBody, toFlowRunBody } from './flowViews.js';
import { FLOW_RUN_STATUS_MEMO, flowRunWorkflow, flowRunWorkflowId, type FlowNodeValue, type FlowRunInput } from './ids.js';

export type FlowRunWorkflow = WorkflowOf<typeof flowRunWorkflow>;

export const flowRunInput = (r: FlowRunRecord): FlowRunInput => ({
  guildId: r.guildId,
  executionId: r.executionId,
  flowId: r.flowId,
  flowVersion: r.flowVersion,
  nodes: r.nodes as FlowNodeValue[],
  timeoutSeconds: r.timeoutSeconds,
  trigger: r.input,
  startedAt: r.startedAt.toISOString(),
});

/** A flow run, by workflow `flow-run/<guild>/<executionId>`, its input read from the run's durable record. */
export const flowRunOperation: Operation<FlowRunRecord, FlowRunWorkflow, Kysely<Database>> = {
  workflow: flowRunWorkflow,
  workflowId: (r) => flowRunWorkflowId(r.guildId, r.executionId),
  args: (r) => [flowRunInput(r)],
  operation: () => 'flows.run',
  guildId: (r) => r.guildId,
  summary: (r, by) => `Flow ${r.flowId} v${r.flowVersion} run ${r.executionId} (${r.source})${by}`,
  memo: { [FLOW_RUN_STATUS_MEMO]: 'running' },
  listUnstarted: listUnstartedFlowRuns,
  markStarted: (db, r, at) => markFlowRunStarted(db, r.executionId, at),
};

/** How a run that closed without a result reads (terminated from Temporal UI, or failed outright). */
const closedWithoutResult = (r: FlowRunRecord, closedAs: string): FlowRunBody => ({
  ...toFlowRunBody(r),
  status: closedAs === 'TERMINATED' || closedAs === 'CANCELLED' ? 'cancelled' : 'error',
  error: `the run's workflow was ${closedAs.toLowerCase()}`,
});

/**
 * A run's status: its durable record once it ended (answers past Temporal's retention); while it is open, running
 * (also before its workflow exists: the start after the answer, or the start relay, is on its way), and the
 * workflow's result once it completed, before the record says so.
 */
export const flowRunStatus: PolledOperation<FlowRunRecord, FlowRunWorkflow, FlowRunBody> = {
  settled: (r) => (r.status !== 'running' ? toFlowRunBody(r) : undefined),
  workflowId: (r) => flowRunWorkflowId(r.guildId, r.executionId),
  run: (r) => ({
    notStarted: toFlowRunBody(r),
    fromMemo: () => toFlowRunBody(r),
    fromResult: (outcome) => finishedRunBody(r, outcome),
    closedWithoutResult: (closedAs) => closedWithoutResult(r, closedAs),
  }),
};
