import { WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import type { Clock } from '../clock.js';
import type { TemporalGateway } from './gateway.js';
import { operationAttributes } from './searchAttributes.js';
import { startOnce, type StartOptions } from './startOnce.js';
import type { Workflow, WorkflowRef } from './workflowRef.js';

/**
 * One asynchronous operation, described once: a record committed with the request, a workflow started
 * right after the commit (and by the start relay when that start was lost), its status read back from
 * the workflow. The route, the relay and the status endpoint all use the same descriptor.
 */
export interface Operation<R, W extends Workflow, Db> {
  workflow: WorkflowRef<W>;
  workflowId(record: R): string;
  args(record: R): Parameters<W>;
  /** The `Operation` search attribute, for example `levels.xpChange`. */
  operation(record: R): string;
  guildId(record: R): string;
  /** Static summary shown in Temporal UI; `by` names the API key that asked, when one did. */
  summary(record: R, by: string): string;
  memo?: Record<string, unknown>;
  /** Committed records older than `olderThan` whose start was not recorded, oldest first. */
  listUnstarted(db: Db, olderThan: Date, limit: number): Promise<R[]>;
  markStarted(db: Db, record: R, at: Date): Promise<void>;
}

export interface OperationDeps<Db> {
  db: Db;
  temporal: TemporalGateway;
  clock: Clock;
}

/** Starts the operation's workflow (a repeated start finds the existing run) and records that it started. */
export async function launchOperation<R, W extends Workflow, Db>(
  deps: OperationDeps<Db>,
  op: Operation<R, W, Db>,
  record: R,
  keyName?: string,
): Promise<void> {
  const guildId = op.guildId(record);
  await startOnce<W>(deps.temporal, op.workflow, {
    workflowId: op.workflowId(record),
    args: op.args(record),
    typedSearchAttributes: operationAttributes(guildId, op.operation(record)),
    memo: op.memo,
    staticSummary: op.summary(record, keyName ? ` by key "${keyName}"` : ''),
  } as StartOptions<W>);
  await op.markStarted(deps.db, record, deps.clock.now());
}

/** One pass of the start relay for one operation: launches what a crash or outage left unstarted. */
export async function relayUnstarted<R, W extends Workflow, Db>(
  deps: OperationDeps<Db>,
  op: Operation<R, W, Db>,
  options = { graceMs: 5_000, batch: 200 },
): Promise<number> {
  const olderThan = new Date(deps.clock.now().getTime() - options.graceMs);
  const records = await op.listUnstarted(deps.db, olderThan, options.batch);
  for (const record of records) await launchOperation(deps, op, record);
  return records.length;
}

/** How one operation's status reads from its run; the same shape for every polled operation. */
export interface StatusReader<W extends Workflow, S> {
  /** Before the run exists (its start is still on the way). */
  notStarted: S;
  /** While the run is open: from its memo, which describe() serves without a worker. */
  fromMemo(memo: Record<string, unknown>): S;
  /** Once it completed: its result. */
  fromResult(result: Awaited<ReturnType<W>>): S;
  /** A run that closed without a result (failed, terminated, timed out), from its last memo. */
  closedWithoutResult(memo: Record<string, unknown>): S;
}

/** Reads an operation's status from its workflow: memo while open, result once completed. */
export async function readOperationStatus<W extends Workflow, S>(
  { client }: TemporalGateway,
  workflowId: string,
  reader: StatusReader<W, S>,
): Promise<S> {
  const handle: WorkflowHandle<W> = client.workflow.getHandle<W>(workflowId);
  try {
    const { status, memo } = await handle.describe();
    if (status.name === 'COMPLETED') return reader.fromResult((await handle.result()) as Awaited<ReturnType<W>>);
    if (status.name !== 'RUNNING') return reader.closedWithoutResult(memo ?? {});
    return reader.fromMemo(memo ?? {});
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return reader.notStarted;
    throw err;
  }
}
