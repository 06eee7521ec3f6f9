import type { FlowRecord } from '../../db/flows/flows.js';
import type { FlowRunRecord } from '../../db/flows/runs.js';
import type { FlowBody, FlowRunBody } from './contract.js';
import type { FlowRunOutcome } from './ids.js';

export const isRunnable = (f: Pick<FlowRecord, 'enabled' | 'triggerType'>): boolean => f.enabled && f.triggerType !== 'event';

export const toFlowBody = (f: FlowRecord): FlowBody => ({
  id: f.id,
  name: f.name,
  description: f.description,
  enabled: f.enabled,
  triggerType: f.triggerType,
  triggerEvent: f.triggerEvent,
  runnable: isRunnable(f),
  timeoutSeconds: f.timeoutSeconds,
  version: f.version,
  updatedAt: f.updatedAt.toISOString(),
});

/** A run as its durable record has it (`running` until the workflow recorded its end). */
export const toFlowRunBody = (r: FlowRunRecord): FlowRunBody => ({
  executionId: r.executionId,
  workflowId: r.flowId,
  status: r.status,
  output: r.status === 'running' ? null : ((r.output ?? null) as FlowRunBody['output']),
  error: r.error,
  startedAt: r.startedAt.toISOString(),
  finishedAt: r.finishedAt?.toISOString() ?? null,
  durationMs: r.durationMs,
});

/** A run as its workflow's result has it. */
export const finishedRunBody = (r: FlowRunRecord, outcome: FlowRunOutcome): FlowRunBody => ({
  ...toFlowRunBody(r),
  status: outcome.status,
  output: (outcome.output ?? null) as FlowRunBody['output'],
  error: outcome.error,
  finishedAt: outcome.finishedAt,
  durationMs: outcome.durationMs,
});
