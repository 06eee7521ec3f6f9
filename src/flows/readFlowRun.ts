import { isGrpcDeadlineError } from '@temporalio/client';
import type { Kysely } from 'kysely';
import { findFlowRun, type FlowRunRecord } from '../../db/flows/runs.js';
import type { Database } from '../../db/schema.js';
import { flowRunNotFound } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { TemporalGateway } from '../core/temporal/gateway.js';
import { launchOperation, type OperationDeps } from '../core/temporal/operation.js';
import { readPolledStatus } from '../core/temporal/polledStatus.js';
import { MAX_WAIT_SECONDS, type FlowRunBody } from './contract.js';
import { flowRunOperation, flowRunStatus, type FlowRunWorkflow } from './flowRunOperation.js';
import { finishedRunBody } from './flowViews.js';
import { flowRunWorkflowId, type FlowRunOutcome } from './ids.js';

const handleOf = (temporal: TemporalGateway, r: FlowRunRecord) =>
  temporal.client.workflow.getHandle<FlowRunWorkflow>(flowRunWorkflowId(r.guildId, r.executionId));

/**
 * A run of the server's flows: its durable record once it ended (answers past Temporal's retention), the
 * workflow while it is open; FLOW_RUN_NOT_FOUND for an unknown executionId.
 */
export async function readFlowRun(deps: { db: Kysely<Database>; temporal: TemporalGateway }, guildId: string, executionId: number): Promise<FlowRunBody> {
  const record = await findFlowRun(deps.db, guildId, executionId);
  if (!record) throw flowRunNotFound();
  return readPolledStatus(deps.temporal, flowRunStatus, record);
}

/**
 * A just-accepted run waited on (POST runs with `wait`): its final body when it ended within `timeoutSeconds`
 * (default: the flow's timeout and 5 s, at most MAX_WAIT_SECONDS), else undefined: still running, or Temporal did
 * not answer (logged). The run stands either way and the caller polls it.
 */
export async function waitOnAcceptedFlowRun(
  deps: OperationDeps<Kysely<Database>> & { logger: Logger },
  accepted: { guildId: string; executionId: number },
  wait: { timeoutSeconds?: number; keyName: string },
): Promise<FlowRunBody | undefined> {
  const run = (await findFlowRun(deps.db, accepted.guildId, accepted.executionId))!;
  const waitSeconds = wait.timeoutSeconds ?? Math.min(run.timeoutSeconds + 5, MAX_WAIT_SECONDS);
  const outcome = await startAndAwaitFlowRun(deps, run, waitSeconds * 1000, wait.keyName).catch((err: unknown) => {
    deps.logger.warn({ err, executionId: run.executionId }, 'waiting on a flow run failed; answered as running');
    return undefined;
  });
  return outcome ? finishedRunBody(run, outcome) : undefined;
}

/**
 * Waits up to `waitMs` for a run's result (flow run with `wait`), first starting it when its start is not recorded
 * yet (the start after the answer and the relay may race it: a repeated start finds the same run). The start shares
 * the wait's deadline, so a Temporal that does not answer costs the wait and no more; undefined when the deadline
 * came first (the run stands, and the start relay starts it if nothing did).
 */
async function startAndAwaitFlowRun(
  deps: OperationDeps<Kysely<Database>>,
  record: FlowRunRecord,
  waitMs: number,
  keyName: string,
): Promise<FlowRunOutcome | undefined> {
  const deadline = Date.now() + waitMs;
  if (!record.workflowStartedAt) {
    try {
      await deps.temporal.client.withDeadline(deadline, () => launchOperation(deps, flowRunOperation, record, keyName));
    } catch (err) {
      if (isGrpcDeadlineError(err) || isGrpcDeadlineError((err as Error).cause)) return undefined;
      throw err;
    }
  }
  const remaining = deadline - Date.now();
  return remaining > 0 ? awaitFlowRun(deps.temporal, record, remaining) : undefined;
}

/**
 * Waits for a started run's result until `waitMs` passes, holding no worker slot (a long poll on the
 * Temporal server with a deadline); undefined when the deadline came first.
 */
async function awaitFlowRun(temporal: TemporalGateway, record: FlowRunRecord, waitMs: number): Promise<FlowRunOutcome | undefined> {
  const handle = handleOf(temporal, record);
  try {
    return await temporal.client.withDeadline(Date.now() + waitMs, () => handle.result());
  } catch (err) {
    if (isGrpcDeadlineError(err) || isGrpcDeadlineError((err as Error).cause)) return undefined;
    throw err;
  }
}
