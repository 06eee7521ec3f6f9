import type { WorkflowRef } from '../core/temporal/workflowRef.js';
import type { RefusalCode } from '../core/errorCodes.js';
import type { XpChangeResult } from '../../db/levels/xpChanges.js';
import type { LevelEffectRefusal } from '../../db/levels/levelUpEffects.js';

// Pure: the workflows import this file, so it holds ids and types only.

export type { LevelEffectRefusal, XpChangeResult };

export interface XpChangeInput {
  changeId: string;
  guildId: string;
  userId: string;
}

export type XpChangeOutcome = { status: 'done'; result: XpChangeResult } | { status: 'failed'; error: RefusalCode };

export const xpChangeWorkflow: WorkflowRef<(input: XpChangeInput) => Promise<XpChangeOutcome>> = { name: 'xpChange' };
/** The recorded effects of one level reached from activity, by its `levels.levelUp` event. */
export interface LevelUpEffectsInput {
  guildId: string;
  eventId: string;
}

export const levelUpEffectsWorkflow: WorkflowRef<(input: LevelUpEffectsInput) => Promise<{ refused: LevelEffectRefusal[] }>> = { name: 'levelUpEffects' };
export const refreshLevelRanksWorkflow: WorkflowRef<() => Promise<{ refreshed: number; dropped: number }>> = { name: 'refreshLevelRanks' };

export const levelUpEffectsWorkflowId = (guildId: string, eventId: string) => `level-up/${guildId}/${eventId}`;
export const xpChangeWorkflowId = (guildId: string, changeId: string) => `xp-change/${guildId}/${changeId}`;

/** Memo key the API reads with describe() while the run is open (status polling without a worker). */
export const XP_CHANGE_STATUS_MEMO = 'status';
