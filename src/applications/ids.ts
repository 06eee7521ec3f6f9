import type { WorkflowRef } from '../core/temporal/workflowRef.js';
import type { FailedSubmissionAction } from '../../db/applications/submissions.js';

// Pure: the workflows import this file, so it holds ids and types only.

export type { FailedSubmissionAction };

export interface ApplicationDecisionInput {
  guildId: string;
  number: number;
  decision: 'accepted' | 'denied';
}

export const applicationDecisionWorkflow: WorkflowRef<
  (input: ApplicationDecisionInput) => Promise<{ failedActions: FailedSubmissionAction[] }>
> = { name: 'applicationDecision' };

export const applicationDecisionWorkflowId = (guildId: string, number: number) => `application-decision/${guildId}/${number}`;
