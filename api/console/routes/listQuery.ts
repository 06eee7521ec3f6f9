import { ConsoleRefusal } from '../../../src/console/errors.js';
import type { ConsoleContext } from '../consoleState.js';

/**
 * A list's cursor (a record number; `before` for a newest-first list, `after` for one in order), refused 400
 * INVALID_INPUT when it is not one: "`before` is <what>." At most `digits` digits: 9 for a number kept in an integer
 * column (a longer one would overflow it in the query), 15 for a bigserial id (still exact as a JS number).
 */
export function cursorOf(ctx: ConsoleContext, what: string, name: 'before' | 'after' = 'before', digits: 9 | 15 = 9): number | undefined {
  const raw = typeof ctx.query[name] === 'string' ? ctx.query[name] : undefined;
  if (raw !== undefined && !new RegExp(`^\\d{1,${digits}}$`).test(raw)) throw new ConsoleRefusal('INVALID_INPUT', `\`${name}\` is ${what}.`);
  return raw === undefined ? undefined : Number(raw);
}

/**
 * A list's query: its status filter (one of `filters`; `fallback` when none is asked, else none) and its `before`
 * cursor, each refused 400 INVALID_INPUT when not what it says.
 */
export function listQueryOf<S extends string, F extends S | undefined = undefined>(ctx: ConsoleContext, filters: readonly S[], before: string, fallback?: F) {
  const status = typeof ctx.query.status === 'string' && ctx.query.status !== '' ? ctx.query.status : fallback;
  if (status !== undefined && !(filters as readonly string[]).includes(status)) throw new ConsoleRefusal('INVALID_INPUT', `Status is one of ${filters.join(', ')}.`);
  return { status: status as S | F, before: cursorOf(ctx, before) };
}
