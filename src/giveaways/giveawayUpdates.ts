import { WithStartWorkflowOperation, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure, WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import type { Kysely } from 'kysely';
import type { GiveawayRecord } from '../../db/giveaways/giveaways.js';
import type { Database } from '../../db/schema.js';
import { AppError, giveawayNotActive, giveawayNotEnded, rerollRefused, type ErrorCode } from '../core/errors.js';
import { ERROR_STATUS } from '../core/errorCodes.js';
import type { TemporalGateway } from '../core/temporal/gateway.js';
import { operationAttributes } from '../core/temporal/searchAttributes.js';
import type { GiveawayDrawResultBody } from './contract.js';
import { giveawayInput, type GiveawayWorkflow } from './giveawayOperation.js';
import { giveawayEndUpdate, giveawayRerollUpdate, giveawayWorkflow, giveawayWorkflowId, type DrawActor, type DrawRef, type RerollRequest } from './ids.js';
import { countDraws, readDrawResult, requireGiveaway } from './readGiveaways.js';
import { planReroll, type RerollAsk } from './rerollRules.js';

interface DrawDeps {
  db: Kysely<Database>;
  temporal: TemporalGateway;
}

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
    return await client.workflow.getHandle<GiveawayWorkflow>(giveawayWorkflowId(g.guildId, g.id)).executeUpdate(giveawayEndUpdate, { args: [actor] });
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
  // Typed by the ref: the start's args are checked against the workflow's parameters.
  const startWorkflowOperation = new WithStartWorkflowOperation<GiveawayWorkflow>(giveawayWorkflow.name, {
    workflowId: giveawayWorkflowId(g.guildId, g.id),
    taskQueue: gateway.taskQueue,
    args: [{ ...giveawayInput(g), reopened: { lastDrawNumber } }],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    typedSearchAttributes: operationAttributes(g.guildId, 'giveaways.run'),
    staticSummary: `Giveaway #${g.id} reopened for a reroll`,
  });
  try {
    return await gateway.client.workflow.executeUpdateWithStart(giveawayRerollUpdate, {
      args: [request],
      startWorkflowOperation,
    });
  } catch (err) {
    return fromUpdateFailure(err);
  }
}

/**
 * Ends an active giveaway now (GIVEAWAY_NOT_FOUND, or 409 GIVEAWAY_NOT_ACTIVE with its status) and answers with
 * the giveaway and its draw.
 */
export async function endGiveaway(deps: DrawDeps, guildId: string, giveawayId: number, actor: DrawActor): Promise<GiveawayDrawResultBody> {
  const g = await requireGiveaway(deps.db, guildId, giveawayId);
  // An active giveaway already being drawn is let through: the workflow answers with that same draw.
  if (g.status !== 'active') throw giveawayNotActive(g.status);
  const { drawNumber } = await requestEnd(deps.temporal, g, actor);
  return readDrawResult(deps.db, g.guildId, g.id, drawNumber);
}

/**
 * Rerolls an ended giveaway (GIVEAWAY_NOT_FOUND, 409 GIVEAWAY_NOT_ENDED with its status, 422 NOT_A_WINNER or
 * TOO_MANY_WINNERS) and answers with the giveaway and the new draw.
 */
export async function rerollGiveaway(deps: DrawDeps, guildId: string, giveawayId: number, ask: RerollAsk, actor: DrawActor): Promise<GiveawayDrawResultBody> {
  const g = await requireGiveaway(deps.db, guildId, giveawayId);
  if (g.status !== 'ended') throw giveawayNotEnded(g.status);
  // Refused here when the winners as they stand say so; the draw resolves the defaults again against its own.
  const planned = planReroll(g, ask);
  if ('refusal' in planned) throw rerollRefused(planned.refusal.code, planned.refusal.message);
  const lastDrawNumber = await countDraws(deps.db, g.guildId, g.id);
  const { drawNumber } = await requestReroll(deps.temporal, g, lastDrawNumber, { ...ask, actor });
  return readDrawResult(deps.db, g.guildId, g.id, drawNumber);
}
