import { ConsoleRefusal } from '../../../src/console/errors.js';
import { AUDIT_ACTOR_TYPES, readAuditLog } from '../../../src/console/readAuditLog.js';
import type { AppDeps } from '../../context.js';
import { managedServer } from '../consoleDeps.js';
import type { ConsoleRouter } from '../consoleState.js';
import { sendPage } from '../render.js';
import { AuditPage } from '../views/auditPage.js';

const PAGE_SIZE = 50;
const one = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** The server's audit log: filterable by who and by action, paginated. */
export function auditRoutes(router: ConsoleRouter, deps: AppDeps): void {
  router.get('/servers/:guildId/audit', async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    const actor = one(ctx.query.actor);
    const action = one(ctx.query.action);
    const before = one(ctx.query.before);
    if (actor && !(AUDIT_ACTOR_TYPES as readonly string[]).includes(actor)) throw new ConsoleRefusal('INVALID_INPUT', `Who is one of ${AUDIT_ACTOR_TYPES.join(', ')}.`);
    if (action && action.length > 100) throw new ConsoleRefusal('INVALID_INPUT', 'The action filter is at most 100 characters.');
    if (before && !/^\d{1,18}$/.test(before)) throw new ConsoleRefusal('INVALID_INPUT', '`before` is an audit entry number.');
    const rows = await readAuditLog(deps.db, guild.id, {
      actorType: actor as (typeof AUDIT_ACTOR_TYPES)[number] | undefined,
      actionPrefix: action,
      beforeId: before,
      limit: PAGE_SIZE + 1,
    });
    const entries = rows.slice(0, PAGE_SIZE);
    const older = new URLSearchParams({ ...(actor && { actor }), ...(action && { action }), before: entries.at(-1)?.id ?? '' });
    const olderHref = rows.length > PAGE_SIZE ? `${ctx.path}?${older}` : null;
    sendPage(ctx, AuditPage({ viewer, guild, entries, filter: { actor, action }, actorTypes: AUDIT_ACTOR_TYPES, olderHref }));
  });
}
