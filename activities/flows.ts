import { ApplicationFailure } from '@temporalio/common';
import { finishFlowRun } from '../db/flows/runs.js';
import { AppError } from '../src/core/errors.js';
import { startFanoutsOrLeaveToRelay } from '../src/events/outbox.js';
import { applyFlowBankChange, type FlowEffectRef } from '../src/flows/applyFlowBankChange.js';
import { applyFlowXpChange } from '../src/flows/applyFlowXpChange.js';
import { BankParams, HttpParams, MessageParams, parseParams, RoleParams, XpParams } from '../src/flows/effectParams.js';
import { ExpressionError, resolveTemplate } from '../src/flows/expressions.js';
import { FlowHttpError, sendFlowRequest } from '../src/flows/httpRequest.js';
import { FLOW_NODE_FAILED, HTTP_TIMEOUT_MS, type FlowNodeOutcome, type FlowRunOutcome } from '../src/flows/ids.js';
import type { Feature } from '../src/core/features.js';
import { findHumanMember } from '../src/core/members.js';
import { isFeatureEnabled } from '../src/guild/featureEnabled.js';
import { createGuardedDispatcher } from '../src/webhooks/guardedDispatcher.js';
import type { z } from 'zod';
import type { ActivityDeps } from './deps.js';

export type FlowsActivities = ReturnType<typeof createFlowsActivities>;

/** A node failure: never retried, its message becomes the run's error. */
const nodeFailed = (message: string) => ApplicationFailure.nonRetryable(message, FLOW_NODE_FAILED);

function checked<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = parseParams(schema, value);
  if (!parsed.ok) throw nodeFailed(parsed.error);
  return parsed.value;
}

/** The spec's refusals (INSUFFICIENT_FUNDS, BALANCE_LIMIT, ...) fail the node; anything else is retried. */
function asNodeFailure(err: unknown): unknown {
  if (err instanceof AppError) return nodeFailed(`${err.code}: ${err.message}`);
  return err;
}

export function createFlowsActivities(deps: ActivityDeps) {
  const { db, platform, clock } = deps;
  const dispatcher = createGuardedDispatcher({ allowLoopback: deps.webhooks.allowInsecureLocal, connectTimeoutMs: HTTP_TIMEOUT_MS });

  async function requireFeature(guildId: string, feature: Feature, code: string) {
    if (!(await isFeatureEnabled(db, guildId, feature))) throw nodeFailed(`${code}: the ${feature} feature is disabled on this server`);
  }

  async function requireHuman(guildId: string, userId: string) {
    const target = await findHumanMember(platform, guildId, userId);
    if ('refusal' in target) {
      throw nodeFailed(target.refusal === 'MEMBER_NOT_FOUND' ? `MEMBER_NOT_FOUND: ${userId} is not a member of this server` : `BOT_ACCOUNT: ${userId} is a bot account`);
    }
  }

  return {
    /** Resolves the expressions in a node's parameters over {trigger, nodes}; a failing one fails the node. */
    async resolveFlowParams(params: unknown, context: { trigger: unknown; nodes: Record<string, unknown> }): Promise<unknown> {
      try {
        return await resolveTemplate(params, context);
      } catch (err) {
        if (err instanceof ExpressionError) throw nodeFailed(err.message);
        throw err;
      }
    },

    async flowHttpRequest(_ref: FlowEffectRef, params: unknown) {
      try {
        return await sendFlowRequest(dispatcher, checked(HttpParams, params));
      } catch (err) {
        if (err instanceof FlowHttpError) throw nodeFailed(err.message);
        throw err;
      }
    },

    /** Posts once per run and node (the idempotency key), so a retry never posts twice. */
    async flowSendMessage(ref: FlowEffectRef, params: unknown): Promise<{ messageId: string }> {
      const p = checked(MessageParams, params);
      const channels = await platform.listChannels(ref.guildId);
      if (!channels.some((c) => c.id === p.channelId)) throw nodeFailed(`CHANNEL_NOT_FOUND: no channel ${p.channelId} on this server`);
      const messageId = await platform.postMessage(ref.guildId, p.channelId, p.content, `flow/${ref.guildId}/${ref.executionId}/${ref.nodeId}`);
      return { messageId };
    },

    /** Gives or takes a role; a set operation, so a retry changes nothing more. */
    async flowChangeRole(ref: FlowEffectRef, action: 'add' | 'remove', params: unknown): Promise<{ changed: boolean }> {
      const p = checked(RoleParams, params);
      if (!(await platform.getMember(ref.guildId, p.userId))) throw nodeFailed(`MEMBER_NOT_FOUND: ${p.userId} is not a member of this server`);
      const roles = await platform.listRoles(ref.guildId);
      if (!roles.some((r) => r.id === p.roleId)) throw nodeFailed(`ROLE_NOT_FOUND: no role ${p.roleId} on this server`);
      return { changed: await platform.changeRole(ref.guildId, p.userId, p.roleId, action, `Flow run ${ref.executionId}`) };
    },

    async flowBankTransaction(ref: FlowEffectRef, params: unknown) {
      const p = checked(BankParams, params);
      await requireFeature(ref.guildId, 'bank', 'BANK_DISABLED');
      await requireHuman(ref.guildId, p.userId);
      try {
        const applied = await db.transaction().execute((trx) => applyFlowBankChange(trx, ref, p, clock.now()));
        await startFanoutsOrLeaveToRelay(deps, applied.events);
        return applied.result;
      } catch (err) {
        throw asNodeFailure(err);
      }
    },

    async flowXpChange(ref: FlowEffectRef, params: unknown) {
      const p = checked(XpParams, params);
      await requireFeature(ref.guildId, 'levels', 'FEATURE_DISABLED');
      await requireHuman(ref.guildId, p.userId);
      const applied = await db.transaction().execute((trx) => applyFlowXpChange(trx, ref, p, clock.now()));
      await startFanoutsOrLeaveToRelay(deps, applied.events);
      return applied.result;
    },

    /** `nodes` is absent when a worker of the previous release ends the run (a rolling deploy): the record keeps none. */
    async finishFlowRun(executionId: number, outcome: FlowRunOutcome, nodes?: FlowNodeOutcome[]): Promise<void> {
      await finishFlowRun(db, executionId, { ...outcome, finishedAt: new Date(outcome.finishedAt), nodeOutcomes: nodes ?? null });
    },
  };
}
