import type { WorkflowRef } from '../core/temporal/workflowRef.js';
import type { FlowNodeValue } from './definition.js';

// Pure: the workflows import this file, so it holds ids, types and constants only.

export type { FlowNodeValue };

export const FLOW_RUN_STATUSES = ['running', 'success', 'error', 'stopped', 'cancelled'] as const;
export type FlowRunStatus = (typeof FLOW_RUN_STATUSES)[number];
export type FinalFlowRunStatus = Exclude<FlowRunStatus, 'running'>;

/** What a run needs, snapshotted when it is accepted: editing the flow later changes no run in progress. */
export interface FlowRunInput {
  guildId: string;
  executionId: number;
  flowId: number;
  flowVersion: number;
  nodes: FlowNodeValue[];
  timeoutSeconds: number;
  /** The trigger data: the manual input, {headers, query, body} of a webhook call, or the event's data. */
  trigger: unknown;
  /** ISO time the run was accepted (FlowRun.startedAt). */
  startedAt: string;
}

export interface FlowRunOutcome {
  status: FinalFlowRunStatus;
  /** The last node's output (success only), capped at FLOW_OUTPUT_MAX_BYTES. */
  output: unknown;
  error: string | null;
  finishedAt: string;
  durationMs: number;
}

/**
 * What one node of a run did, in the order the nodes ran (a node the run never reached has none): `done` with its
 * output (kept when it is at most NODE_OUTCOME_OUTPUT_MAX_BYTES as JSON, else only its size), `failed` with the
 * run's error, `stopped` when the flow's timeout passed in it.
 */
export interface FlowNodeOutcome {
  node: string;
  type: string;
  status: 'done' | 'failed' | 'stopped';
  output?: unknown;
  outputBytes?: number;
  error?: string;
}

/** A node's output kept in its run's record (for the console), at most this size as JSON. */
export const NODE_OUTCOME_OUTPUT_MAX_BYTES = 4 * 1024;

/** A node's output kept for later expressions, and a run's output, are capped at this size as JSON. */
export const FLOW_OUTPUT_MAX_BYTES = 64 * 1024;
/** What all node outputs of one run may add up to, as JSON. */
export const FLOW_CONTEXT_MAX_BYTES = 1024 * 1024;

/** An http node's request, connect to last byte; also what such a node counts against the flow's timeout at most. */
export const HTTP_TIMEOUT_MS = 10_000;

/** Failure type of a node that failed for good (its message is the run's error). */
export const FLOW_NODE_FAILED = 'FLOW_NODE_FAILED';
/** The memo key the run's status is mirrored into (describe() reads it without a worker). */
export const FLOW_RUN_STATUS_MEMO = 'status';

export const flowRunWorkflow: WorkflowRef<(input: FlowRunInput) => Promise<FlowRunOutcome>> = { name: 'flowRun' };

export const flowRunWorkflowId = (guildId: string, executionId: number) => `flow-run/${guildId}/${executionId}`;
