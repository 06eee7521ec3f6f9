import type { WorkflowRef } from '../core/temporal/workflowRef.js';
import type { RefusalCode } from '../core/errorCodes.js';

// Pure: the workflows import this file, so it holds ids and types only.

export interface ModerationActionInput {
  actionId: string;
  guildId: string;
}

export type ModerationActionOutcome = { status: 'done'; caseNumber: number } | { status: 'failed'; error: RefusalCode };

export const moderationActionWorkflow: WorkflowRef<(input: ModerationActionInput) => Promise<ModerationActionOutcome>> = {
  name: 'moderationAction',
};

export const modActionWorkflowId = (guildId: string, actionId: string) => `mod-action/${guildId}/${actionId}`;

/** Memo key the API reads with describe(): the run stays open after `done` while a timer runs. */
export const MOD_ACTION_STATUS_MEMO = 'status';
