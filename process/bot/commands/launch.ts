import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { launchOperation, type Operation } from '../../../src/core/temporal/operation.js';
import type { Workflow } from '../../../src/core/temporal/workflowRef.js';
import type { BotDeps } from '../handler.js';

/**
 * Starts the workflow of work a command committed, as the API does after its commit. Without Temporal, or while it
 * is down, the record waits for the worker's start relay (it starts what has no recorded start within seconds), so
 * nothing is lost and the command is not refused.
 */
export async function launchAfterCommit<R, W extends Workflow>(deps: BotDeps, operation: Operation<R, W, Kysely<Database>>, record: R): Promise<void> {
  if (!deps.temporal) return;
  try {
    await launchOperation({ db: deps.db, temporal: deps.temporal, clock: deps.clock }, operation, record);
  } catch (err) {
    deps.logger.warn({ err, workflowId: operation.workflowId(record) }, 'workflow start failed; the start relay starts it');
  }
}
