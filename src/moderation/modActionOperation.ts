import type { Kysely } from 'kysely';
import { listUnstartedModActions, markModActionStarted, type ModActionRecord } from '../../db/moderation/actions.js';
import type { Database } from '../../db/schema.js';
import type { RefusalCode } from '../core/errorCodes.js';
import type { WorkflowOf } from '../core/temporal/workflowRef.js';
import type { Operation } from '../core/temporal/operation.js';
import { OPERATION_GAVE_UP } from '../core/errorCodes.js';
import type { PolledOperation } from '../core/temporal/polledStatus.js';
import type { ModActionBody } from './contract.js';
import {
  MOD_ACTION_STATUS_MEMO,
  modActionWorkflowId,
  moderationActionWorkflow,
} from './ids.js';

type ModerationActionWorkflow = WorkflowOf<typeof moderationActionWorkflow>;
export type StartableModAction = Pick<ModActionRecord, 'actionId' | 'guildId' | 'userId' | 'action'>;

/** A moderation action: accepted by the API, carried out by workflow `mod-action/<guild>/<action>`. */
export const modActionOperation: Operation<StartableModAction, ModerationActionWorkflow, Kysely<Database>> = {
  workflow: moderationActionWorkflow,
  workflowId: (a) => modActionWorkflowId(a.guildId, a.actionId),
  args: (a) => [{ actionId: a.actionId, guildId: a.guildId }],
  operation: (a) => `moderation.${a.action}`,
  guildId: (a) => a.guildId,
  summary: (a, by) => `${a.action} user ${a.userId}${by}`,
  memo: { [MOD_ACTION_STATUS_MEMO]: 'pending' },
  listUnstarted: listUnstartedModActions,
  markStarted: (db, a, at) => markModActionStarted(db, a.actionId, at),
};

export type ModActionStatus = Pick<ModActionBody, 'status' | 'caseNumber' | 'error'>;

const pending: ModActionStatus = { status: 'pending', caseNumber: null, error: null };

function statusFromMemo(memo: Record<string, unknown>): ModActionStatus {
  const status = memo[MOD_ACTION_STATUS_MEMO];
  if (status === 'done' && typeof memo.caseNumber === 'number') return { status: 'done', caseNumber: memo.caseNumber, error: null };
  if (status === 'failed' && typeof memo.error === 'string') return { status: 'failed', caseNumber: null, error: memo.error as RefusalCode };
  return status === 'running' ? { ...pending, status: 'running' } : pending;
}

/**
 * The record once it is stored final; else the run. A run stays open after `done` while it waits for a timeout or
 * tempban to end: the memo, not the close, says done. A run that closed without a result before it was done (it
 * failed, or an operator ended it) failed.
 */
export const modActionStatus: PolledOperation<ModActionRecord, ModerationActionWorkflow, ModActionStatus> = {
  settled: (a) => (a.status === 'done' || a.status === 'failed' ? { status: a.status, caseNumber: a.caseNumber, error: a.error } : undefined),
  workflowId: (a) => modActionWorkflowId(a.guildId, a.actionId),
  run: () => ({
    notStarted: pending,
    fromMemo: statusFromMemo,
    fromResult: (outcome) =>
      outcome.status === 'done' ? { status: 'done', caseNumber: outcome.caseNumber, error: null } : { status: 'failed', caseNumber: null, error: outcome.error },
    closedWithoutResult(_closedAs, memo) {
      const last = statusFromMemo(memo);
      return last.status === 'done' || last.status === 'failed' ? last : { status: 'failed', caseNumber: null, error: OPERATION_GAVE_UP };
    },
  }),
};
