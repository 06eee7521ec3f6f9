import type { WorkflowRef } from '../core/temporal/workflowRef.js';
import type { FailedTicketCloseAction } from '../../db/tickets/tickets.js';

// Pure: the workflows import this file, so it holds ids and types only.

export type { FailedTicketCloseAction };

export interface TicketCloseInput {
  guildId: string;
  ticketNo: number;
}

export const ticketCloseWorkflow: WorkflowRef<(input: TicketCloseInput) => Promise<{ failedActions: FailedTicketCloseAction[] }>> = {
  name: 'ticketClose',
};

export const ticketCloseWorkflowId = (guildId: string, ticketNo: number) => `ticket-close/${guildId}/${ticketNo}`;
