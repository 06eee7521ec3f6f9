import type { AppDeps } from '../../context.js';
import { requireFeature } from '../consoleFeatures.js';
import { managedServer } from '../consoleDeps.js';
import type { ConsoleContext } from '../consoleState.js';

/** The server of an invites page or action: the manager rule (fresh on writes), then Invites on, as the API's gate refuses it. */
export async function invitesServer(ctx: ConsoleContext, deps: AppDeps) {
  const server = await managedServer(ctx, deps);
  requireFeature(server.guild, 'invites');
  return server;
}
