import { Refusal } from '../core/refusal.js';

/** Why the bot cannot do a bot-origin ticket action (the admin CLI prints the code and the message). */
export class TicketRefusal extends Refusal<
  'GUILD_NOT_FOUND' | 'FEATURE_DISABLED' | 'TICKET_NOT_FOUND' | 'TICKET_CLOSED' | 'TICKET_NOT_PENDING' | 'CLOSE_REQUEST_NOT_DUE'
> {}
