import type { Clock } from '../clock.js';
import type { TemporalGateway } from './gateway.js';
import { operationAttributes } from './searchAttributes.js';
import { startOnce, type StartOptions } from './startOnce.js';
import type { Workflow, WorkflowRef } from './workflowRef.js';

/**
 * One asynchronous operation, described once: a record committed with the request, a workflow started
 * right after the commit (and by the start relay when that start was lost), its status read back from
 * the workflow (polledStatus.ts). The route, the relay and the status endpoint all use the same descriptor.
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
