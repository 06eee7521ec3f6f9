import type { WorkflowRef } from '../core/temporal/workflowRef.js';
import type { FailedAppealAction } from '../../db/appeals/appeals.js';

// Pure: the workflows import this file, so it holds ids and types only.

export type { FailedAppealAction };

export interface AppealDecisionInput {
  guildId: string;
  number: number;
  decision: 'approved' | 'rejected';
}

export const appealDecisionWorkflow: WorkflowRef<(input: AppealDecisionInput) => Promise<{ failedAction: FailedAppealAction | null }>> = {
  name: 'appealDecision',
};

export const appealDecisionWorkflowId = (guildId: string, number: number) => `appeal-decision/${guildId}/${number}`;
