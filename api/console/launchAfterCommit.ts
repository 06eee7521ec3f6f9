import { launchOperation, type Operation } from '../../src/core/temporal/operation.js';
import type { Workflow } from '../../src/core/temporal/workflowRef.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AppDeps } from '../context.js';

/**
 * Starts a dashboard action's workflow once its records committed, as the API's `launch` does after its
 * transaction: a start that fails (Temporal away) is logged, and the start relay starts it from the committed
 * record, so the action is never lost and the manager is not shown an error for what did happen.
 */
export async function launchAfterCommit<R, W extends Workflow>(deps: AppDeps, op: Operation<R, W, Kysely<Database>>, record: R): Promise<void> {
  await launchOperation(deps, op, record).catch((err: unknown) =>
    deps.logger.warn({ err, workflowId: op.workflowId(record) }, 'console workflow start failed; the start relay retries it'),
  );
}
