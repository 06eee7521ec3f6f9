import type { AppDeps } from '../context.js';
import { ConsoleRefusal } from '../../src/console/errors.js';
import { requireManagedServer } from '../../src/console/serverAccess.js';
import type { AuditActor } from '../../db/shared/audit.js';
import { signedIn, type ConsoleContext } from './consoleState.js';

/**
 * The server of a `/console/servers/:guildId/...` request, after the manager rule passed for the signed-in user now.
 * Pages may read the member from the caches (a few minutes old at most); writes (keys, endpoints, retries) read it
 * fresh from the platform, so a demoted manager's next write is refused at once.
 */
export async function managedServer(ctx: ConsoleContext, deps: AppDeps) {
  const { session, viewer } = signedIn(ctx);
  const write = ctx.method !== 'GET' && ctx.method !== 'HEAD';
  const guild = await requireManagedServer(deps, session.userId, ctx.params.guildId ?? '', { fresh: write });
  const actor: AuditActor = { type: 'console_user', userId: session.userId };
  return { guild, viewer, session, actor };
}

/** A record id from the path; anything but a positive integer is a page that does not exist. */
export function idParam(ctx: ConsoleContext, name: string): number {
  const raw = ctx.params[name] ?? '';
  const id = Number(raw);
  if (!/^\d{1,15}$/.test(raw) || id < 1) throw new ConsoleRefusal('PAGE_NOT_FOUND', 'There is no such page.');
  return id;
}

/** The POST's form (read and CSRF-checked by guardWrites). */
export function formOf(ctx: ConsoleContext): URLSearchParams {
  return ctx.state.form ?? new URLSearchParams();
}
