import { ConsoleRefusal } from '../../../src/console/errors.js';
import { EVENT_TYPES } from '../../../src/events/eventTypes.js';
import type { DeliverySearch } from '../../../src/webhooks/readDeliveries.js';
import type { ConsoleContext } from '../consoleState.js';
import { DELIVERY_STATUSES, type DeliveryFilter } from '../views/deliveryListPages.js';


const DAY_MS = 86_400_000;

function day(text: string, field: string): Date {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T00:00:00.000Z`) : undefined;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text) throw new ConsoleRefusal('INVALID_INPUT', `${field} is a date: YYYY-MM-DD.`);
  return date;
}

/** Reads the deliveries lists' query: each filter checked, named in the refusal when it is not what it says. */
export function deliveryFilterOf(ctx: ConsoleContext): { filter: DeliveryFilter; search: Omit<DeliverySearch, 'limit' | 'endpointId'> } {
  const one = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  const q = ctx.query;
  const filter: DeliveryFilter = {};
  for (const key of ['status', 'event', 'event_id', 'from', 'to', 'code'] as const) {
    const value = one(q[key]);
    if (value !== undefined) filter[key] = value;
  }
  const { status, event, event_id: eventId, from, to, code } = filter;
  if (status && !(DELIVERY_STATUSES as readonly string[]).includes(status)) throw new ConsoleRefusal('INVALID_INPUT', `Status is one of ${DELIVERY_STATUSES.join(', ')}.`);
  if (event && !(EVENT_TYPES as readonly string[]).includes(event)) throw new ConsoleRefusal('INVALID_INPUT', 'Unknown event type.');
  if (eventId && !/^evt_[A-Za-z0-9_-]{1,64}$/.test(eventId)) throw new ConsoleRefusal('INVALID_INPUT', 'An event id starts with evt_ (as in a delivery body).');
  if (code && code !== 'none' && !/^[1-5]\d\d$/.test(code)) throw new ConsoleRefusal('INVALID_INPUT', 'Status code is an HTTP status from 100 to 599, or none.');
  const before = one(q.before);
  if (before && !/^\d{1,15}$/.test(before)) throw new ConsoleRefusal('INVALID_INPUT', '`before` is a delivery number.');
  const fromDay = from ? day(from, 'From') : undefined;
  const toDay = to ? day(to, 'To') : undefined;
  if (fromDay && toDay && toDay < fromDay) throw new ConsoleRefusal('INVALID_INPUT', 'The date range ends before it starts.');
  return {
    filter,
    search: {
      status: status as DeliverySearch['status'],
      eventType: event,
      eventId,
      from: fromDay,
      // "To" names a whole day (UTC): deliveries created before the next one.
      until: toDay && new Date(toDay.getTime() + DAY_MS),
      lastStatusCode: code === undefined ? undefined : code === 'none' ? 'none' : Number(code),
      beforeId: before ? Number(before) : undefined,
    },
  };
}
