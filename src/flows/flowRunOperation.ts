import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { listUnstartedFlowRuns, markFlowRunStarted, type FlowRunRecord } from '../../db/flows/runs.js';
import type { Operation } from '../core/temporal/operation.js';
import type { WorkflowOf } from '../core/temporal/workflowRef.js';
import { FLOW_RUN_STATUS_MEMO, flowRunWorkflow, flowRunWorkflowId, type FlowNodeValue, type FlowRunInput } from './ids.js';

type FlowRunWorkflow = WorkflowOf<typeof flowRunWorkflow>;

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
