import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { listUnstartedXpChanges, markXpWorkflowStarted, type XpChangeRecord } from '../../db/levels/xpChanges.js';
import type { WorkflowOf } from '../core/temporal/workflowRef.js';
import type { Operation, StatusReader } from '../core/temporal/operation.js';
import { OPERATION_GAVE_UP } from '../core/errorCodes.js';
import { xpChangeWorkflow, xpChangeWorkflowId, XP_CHANGE_STATUS_MEMO, type XpChangeOutcome } from './ids.js';

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

export type LiveXpStatus = { status: 'pending' | 'processing' } | XpChangeOutcome;

/**
 * Open runs say `processing` once they began; a closed run answers with its outcome, and one that closed without
 * one (it failed, or an operator ended it) failed: the change was not applied, or its run would have completed.
 */
export const xpChangeStatus: StatusReader<XpChangeWorkflow, LiveXpStatus> = {
  notStarted: { status: 'pending' },
  fromMemo: (memo) => ({ status: memo[XP_CHANGE_STATUS_MEMO] === 'processing' ? 'processing' : 'pending' }),
  fromResult: (outcome) => outcome,
  closedWithoutResult: () => ({ status: 'failed', error: OPERATION_GAVE_UP }),
};
