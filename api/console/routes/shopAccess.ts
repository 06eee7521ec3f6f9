import { ConsoleRefusal } from '../../../src/console/errors.js';
import { MAX_RECORD_ID } from '../../../src/shop/contract.js';
import type { SortKey } from '../../../db/shop/items.js';
import type { AppDeps } from '../../context.js';
import { requireFeature } from '../consoleFeatures.js';
import { idParam, managedServer } from '../consoleDeps.js';
import type { ConsoleContext } from '../consoleState.js';

export const SHOP_PAGE_SIZE = 25;

/** The server of a shop page or action, with the shop on (an action of a server whose shop is off: 409 FEATURE_DISABLED). */
export async function shopServer(ctx: ConsoleContext, deps: AppDeps) {
  const server = await managedServer(ctx, deps);
  requireFeature(server.guild, 'shop');
  return server;
}

/** A shop record's id from the path: past the column's range it is no record, a page that does not exist. */
export function shopRecordId(ctx: ConsoleContext, name: string): number {
  const id = idParam(ctx, name);
  if (id > MAX_RECORD_ID) throw new ConsoleRefusal('PAGE_NOT_FOUND', 'There is no such page.');
  return id;
}

/** A sort-ordered list's `after` cursor (`<sortOrder>.<id>`), refused 400 INVALID_INPUT when it is not one. */
export function afterOf(ctx: ConsoleContext): SortKey | undefined {
  const raw = ctx.query.after;
  if (raw === undefined) return undefined;
  const m = typeof raw === 'string' ? /^(\d{1,5})\.(\d{1,10})$/.exec(raw) : null;
  if (!m || Number(m[2]) > MAX_RECORD_ID) throw new ConsoleRefusal('INVALID_INPUT', '`after` is a position and an id, like 0.12.');
  return { sortOrder: Number(m[1]), id: Number(m[2]) };
}
