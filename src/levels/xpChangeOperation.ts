import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { listUnstartedXpChanges, markXpWorkflowStarted, type XpChangeRecord } from '../../db/levels/xpChanges.js';
import type { WorkflowOf } from '../core/temporal/workflowRef.js';
import type { Operation } from '../core/temporal/operation.js';
import { OPERATION_GAVE_UP } from '../core/errorCodes.js';
import type { PolledOperation } from '../core/temporal/polledStatus.js';
import type { XpChangeBody } from './contract.js';
import { xpChangeWorkflow, xpChangeWorkflowId, XP_CHANGE_STATUS_MEMO } from './ids.js';

type XpChangeWorkflow = WorkflowOf<typeof xpChangeWorkflow>;
export type StartableXpChange = Pick<XpChangeRecord, 'changeId' | 'guildId' | 'userId' | 'type' | 'unit' | 'amount'>;

/** An XP change: accepted by the API, applied by workflow `xp-change/<guild>/<change>`. */
export const xpChangeOperation: Operation<StartableXpChange, XpChangeWorkflow, Kysely<Database>> = {
  workflow: xpChangeWorkflow,
  workflowId: (c) => xpChangeWorkflowId(c.guildId, c.changeId),
  args: (c) => [{ changeId: c.changeId, guildId: c.guildId, userId: c.userId }],
  operation: () => 'levels.xpChange',
  guildId: (c) => c.guildId,
  summary: (c, by) => `XP ${c.type} ${c.amount} ${c.unit} for user ${c.userId}${by}`,
  memo: { [XP_CHANGE_STATUS_MEMO]: 'pending' },
  listUnstarted: listUnstartedXpChanges,
  markStarted: (db, c, at) => markXpWorkflowStarted(db, c.changeId, at),
};

export type XpChangeStatus = Pick<XpChangeBody, 'status' | 'result' | 'error'>;

const pending: XpChangeStatus = { status: 'pending', result: null, error: null };
const processing: XpChangeStatus = { status: 'processing', result: null, error: null };

/**
 * Open runs say `processing` once they began; a closed run answers with its outcome, the record once it is stored.
 * A run that closed without an outcome (it failed, or an operator ended it) failed: the change was not applied, or
 * its run would have completed.
 */
export const xpChangeStatus: PolledOperation<XpChangeRecord, XpChangeWorkflow, XpChangeStatus> = {
  settled: (c) => (c.status === 'done' || c.status === 'failed' ? { status: c.status, result: c.result, error: c.error } : undefined),
  workflowId: (c) => xpChangeWorkflowId(c.guildId, c.changeId),
  run: () => ({
    notStarted: pending,
    fromMemo: (memo) => (memo[XP_CHANGE_STATUS_MEMO] === 'processing' ? processing : pending),
    fromResult: (outcome) =>
      outcome.status === 'done' ? { status: 'done', result: outcome.result, error: null } : { status: 'failed', result: null, error: outcome.error },
    closedWithoutResult: () => ({ status: 'failed', result: null, error: OPERATION_GAVE_UP }),
  }),
};
