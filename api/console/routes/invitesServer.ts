import type { AppDeps } from '../../context.js';
import { requireFeature } from '../consoleFeatures.js';
import { managedServer } from '../consoleDeps.js';
import type { ConsoleContext } from '../consoleState.js';
import { sendPage } from '../render.js';
import { InvitesOffPage } from '../views/invitePages.js';

/** The server of an invites page or action: the manager rule (fresh on writes), then Invites on, as the API's gate refuses it. */
export async function invitesServer(ctx: ConsoleContext, deps: AppDeps) {
  const server = await managedServer(ctx, deps);
  requireFeature(server.guild, 'invites');
  return server;
}

/**
 * The server of an invites list page; while Invites is off, undefined once the page that says so (and offers to turn
 * it on, back to `then`) was sent instead of a 403.
 */
export async function invitesPageServer(ctx: ConsoleContext, deps: AppDeps, page: { title: string; then: string }) {
  const server = await managedServer(ctx, deps);
  if (server.guild.features.includes('invites')) return server;
  sendPage(ctx, InvitesOffPage({ viewer: server.viewer, guild: server.guild, ...page }));
  return undefined;
}
