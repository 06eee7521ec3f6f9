/**
 * A use case's refusal of an operator's or the bot's action (a member already there, a season still
 * running, a key limit reached): its code is what the admin CLI, and later a platform adapter, reports.
 * Each area narrows the codes: `class TicketRefusal extends Refusal<'TICKET_NOT_FOUND' | ...> {}`.
 */
export class Refusal<C extends string = string> extends Error {
  constructor(
    readonly code: C,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
