import { WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import type { TemporalGateway } from './gateway.js';
import type { Workflow } from './workflowRef.js';

/** How one operation's status reads from its run. */
export interface StatusReader<W extends Workflow, S> {
  /** Before the run exists (its start is still on the way). */
  notStarted: S;
  /** While the run is open: from its memo, which describe() serves without a worker. */
  fromMemo(memo: Record<string, unknown>): S;
  /** Once it completed: its result. */
  fromResult(result: Awaited<ReturnType<W>>): S;
  /** A run that closed without a result (`closedAs`: FAILED, TERMINATED, CANCELLED, TIMED_OUT ...), with its last memo; without it, the memo answers. */
  closedWithoutResult?(closedAs: string, memo: Record<string, unknown>): S;
}

/**
 * An operation the API answers status polls for (XP change, moderation action, flow run), described once: its durable
 * record answers once it says the operation ended (also past Temporal's retention), its run while it is open.
 */
export interface PolledOperation<R, W extends Workflow, S> {
  /** The status the record alone gives once the operation ended; undefined while it is still under way. */
  settled(record: R): S | undefined;
  workflowId(record: R): string;
  /** How the run of this record reads (per record, for a status built from the record as well). */
  run(record: R): StatusReader<W, S>;
}

/** The one status reader for every polled operation: the record once settled, else the run. */
export async function readPolledStatus<R, W extends Workflow, S>(temporal: TemporalGateway, polled: PolledOperation<R, W, S>, record: R): Promise<S> {
  return polled.settled(record) ?? readRunStatus(temporal, polled.workflowId(record), polled.run(record));
}

/** Reads a run's status: memo while open, result once completed; describe() needs no worker and no replay. */
async function readRunStatus<W extends Workflow, S>({ client }: TemporalGateway, workflowId: string, reader: StatusReader<W, S>): Promise<S> {
  const handle: WorkflowHandle<W> = client.workflow.getHandle<W>(workflowId);
  try {
    const { status, memo } = await handle.describe();
    if (status.name === 'COMPLETED') return reader.fromResult((await handle.result()) as Awaited<ReturnType<W>>);
    if (status.name !== 'RUNNING' && reader.closedWithoutResult) return reader.closedWithoutResult(status.name, memo ?? {});
    return reader.fromMemo(memo ?? {});
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return reader.notStarted;
    throw err;
  }
}
