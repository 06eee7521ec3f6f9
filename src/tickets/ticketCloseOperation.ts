import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { listUnstartedTicketCloses, markTicketCloseStarted } from '../../db/tickets/closes.js';
import type { Operation } from '../core/temporal/operation.js';
import type { WorkflowOf } from '../core/temporal/workflowRef.js';
import { ticketCloseWorkflow, ticketCloseWorkflowId, type TicketCloseInput } from './ids.js';

type TicketCloseWorkflow = WorkflowOf<typeof ticketCloseWorkflow>;

/** The platform side of an API close, by workflow `ticket-close/<guild>/<ticketNo>`; shown as a closeRequest until done. */
export const ticketCloseOperation: Operation<TicketCloseInput, TicketCloseWorkflow, Kysely<Database>> = {
  workflow: ticketCloseWorkflow,
  workflowId: (d) => ticketCloseWorkflowId(d.guildId, d.ticketNo),
  args: (d) => [{ guildId: d.guildId, ticketNo: d.ticketNo }],
  operation: () => 'tickets.close',
  guildId: (d) => d.guildId,
  summary: (d, by) => `Ticket #${d.ticketNo} closed${by}`,
  listUnstarted: listUnstartedTicketCloses,
  markStarted: (db, d, at) => markTicketCloseStarted(db, d.guildId, d.ticketNo, at),
};
