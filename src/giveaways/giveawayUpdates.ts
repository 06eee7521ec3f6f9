import { WithStartWorkflowOperation, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure, WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import type { GiveawayRecord } from '../../db/giveaways/giveaways.js';
import { AppError, giveawayNotActive, giveawayNotEnded, type ErrorCode } from '../core/errors.js';
import { ERROR_STATUS } from '../core/errorCodes.js';
import type { TemporalGateway } from '../core/temporal/gateway.js';
import { operationAttributes } from '../core/temporal/searchAttributes.js';
import { giveawayInput } from './giveawayOperation.js';
import { GIVEAWAY_END_UPDATE, GIVEAWAY_REROLL_UPDATE, giveawayWorkflow, giveawayWorkflowId, type DrawActor, type DrawRef, type RerollRequest } from './ids.js';

/** A refusal the workflow answered an update with, as the API's error (its code is the failure's type). */
function fromUpdateFailure(err: unknown): never {
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && err.cause.type && err.cause.type in ERROR_STATUS) {
    const code = err.cause.type as ErrorCode;
    const status = (err.cause.details?.[0] as { status?: string } | undefined)?.status;
    if (code === 'GIVEAWAY_NOT_ACTIVE') throw giveawayNotActive(status ?? 'not active');
    if (code === 'GIVEAWAY_NOT_ENDED') throw giveawayNotEnded(status ?? 'not ended');
    throw new AppError(code, err.cause.message);
  }
  throw err;
}

/** Ends an active giveaway now through its workflow's `end` update; the answer is the stored draw. */
export async function requestEnd({ client }: TemporalGateway, g: GiveawayRecord, actor: DrawActor): Promise<DrawRef> {
  try {
    return await client.workflow.getHandle(giveawayWorkflowId(g.guildId, g.id)).executeUpdate<DrawRef, [DrawActor]>(GIVEAWAY_END_UPDATE, { args: [actor] });
  } catch (err) {
    // No run (its start still on the way): nothing can end yet.
    if (err instanceof WorkflowNotFoundError) throw giveawayNotActive(g.status);
    return fromUpdateFailure(err);
  }
}

/**
 * Rerolls through the workflow's `reroll` update; after the reroll window closed the run, the same id is
 * started again in its ended state (update-with-start) and answers the update.
 */
export async function requestReroll(gateway: TemporalGateway, g: GiveawayRecord, lastDrawNumber: number, request: RerollRequest): Promise<DrawRef> {
  const startWorkflowOperation = new WithStartWorkflowOperation(giveawayWorkflow.name, {
    workflowId: giveawayWorkflowId(g.guildId, g.id),
    taskQueue: gateway.taskQueue,
    args: [{ ...giveawayInput(g), reopened: { lastDrawNumber } }],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    typedSearchAttributes: operationAttributes(g.guildId, 'giveaways.run'),
    staticSummary: `Giveaway #${g.id} reopened for a reroll`,
  });
  try {
    return await gateway.client.workflow.executeUpdateWithStart<(...a: unknown[]) => Promise<unknown>, DrawRef, [RerollRequest]>(GIVEAWAY_REROLL_UPDATE, {
      args: [request],
      startWorkflowOperation,
    });
  } catch (err) {
    return fromUpdateFailure(err);
  }
}
