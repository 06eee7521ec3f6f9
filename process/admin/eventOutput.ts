import type { OutboxEvent } from '../../src/events/eventTypes.js';
import type { AdminContext, CommandOutput, FanoutStart } from './command.js';

const FANOUT_TEXT: Record<Exclude<FanoutStart, 'none'>, string> = {
  started: 'fan-out started (webhooks go out now)',
  relay: "fan-out left to the worker's start relay (Temporal not reachable from here; it starts within seconds once a worker runs)",
};

/**
 * Starts the fan-out of a command's committed events, and answers the command's result with them (as webhooks
 * deliver them, without the guild id) and how their fan-out began; `noEvent` is the line printed when there was none.
 */
export async function withEvents(
  ctx: AdminContext,
  events: OutboxEvent[],
  result: Record<string, unknown>,
  lines: string[],
  noEvent?: string,
): Promise<CommandOutput> {
  const fanout = await ctx.startFanouts(events);
  const eventLines =
    events.length === 0 ? (noEvent ? [noEvent] : []) : events.map((e) => `Event ${e.type} ${e.id}: ${FANOUT_TEXT[fanout as Exclude<FanoutStart, 'none'>]}.`);
  return {
    json: { ...result, events: events.map((e) => ({ id: e.id, type: e.type, createdAt: e.createdAt, data: e.data })), fanout },
    text: [...lines, ...eventLines],
  };
}
