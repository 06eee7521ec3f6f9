import type { WorkflowRef } from '../core/temporal/workflowRef.js';
import type { RefusalCode } from '../core/errorCodes.js';
import type { XpChangeResult } from '../../db/levels/xpChanges.js';

// Pure: the workflows import this file, so it holds ids and types only.

export type { XpChangeResult };

export interface XpChangeInput {
  changeId: string;
  guildId: string;
  userId: string;
}

export type XpChangeOutcome = { status: 'done'; result: XpChangeResult } | { status: 'failed'; error: RefusalCode };

export const xpChangeWorkflow: WorkflowRef<(input: XpChangeInput) => Promise<XpChangeOutcome>> = { name: 'xpChange' };
export const refreshLevelRanksWorkflow: WorkflowRef<() => Promise<{ refreshed: number; dropped: number }>> = { name: 'refreshLevelRanks' };

export const xpChangeWorkflowId = (guildId: string, changeId: string) => `xp-change/${guildId}/${changeId}`;

/** Memo key the API reads with describe() while the run is open (status polling without a worker). */
export const XP_CHANGE_STATUS_MEMO = 'status';
