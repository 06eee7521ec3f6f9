import type { RefusalCode } from '../core/errorCodes.js';
import type { WorkflowRef } from '../core/temporal/workflowRef.js';

// Pure: the workflows import this file, so it holds ids and types only.

export interface InviteMilestonesInput {
  guildId: string;
  userId: string;
  checkId: number;
}

export interface DueMilestone {
  invites: number;
  roleId: string;
}

export interface InviteMilestonesResult {
  /** Roles granted by this run (a role granted before, or to a member no longer in the server, is not). */
  granted: string[];
  /** Roles the platform refused for good, with the refusal's code (they stay due); absent in runs from before it was recorded. */
  refused?: Array<{ roleId: string; error: RefusalCode }>;
}

export const inviteMilestonesWorkflow: WorkflowRef<(input: InviteMilestonesInput) => Promise<InviteMilestonesResult>> = {
  name: 'inviteMilestones',
};

export const inviteMilestonesWorkflowId = (guildId: string, checkId: number) => `invite-milestones/${guildId}/${checkId}`;

export const refreshInviteRanksWorkflow: WorkflowRef<() => Promise<{ refreshed: number; dropped: number }>> = { name: 'refreshInviteRanks' };
