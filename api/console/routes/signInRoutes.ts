import { localSignInChoices, signInAsLocalMember } from '../../../src/console/localSignIn.js';
import { countOtherSessions } from '../../../src/console/sessions.js';
import { signOut, signOutOtherSessions } from '../../../src/console/userSessions.js';
import { listManagedServers } from '../../../src/console/serverAccess.js';
import { ConsoleRefusal } from '../../../src/console/errors.js';
import type { AppDeps } from '../../context.js';
import { formOf } from '../consoleDeps.js';
import { signedIn, type ConsoleRouter } from '../consoleState.js';
import { seeOther, sendPage } from '../render.js';
import { readSessionCookie, writeSessionCookie } from '../sessionCookie.js';
import { requireSession } from '../sessionGuards.js';
import { ServersPage } from '../views/serversPage.js';
import { SignInPage } from '../views/signInPage.js';
import { sessionPolicy, signInDeps } from '../sessionPolicy.js';

/** Sign-in (the local platform's development sign-in; Discord's in discordSignInRoutes), sign-out, the server list. */
export function signInRoutes(router: ConsoleRouter, deps: AppDeps): void {
  // Only when asked for (CONSOLE_DEV_SIGN_IN, or `npm run dev`); the config refuses it in production and with Discord.
  const devSignIn = deps.config.console.devSignIn;

  router.get('/', requireSession, async (ctx) => {
    const { session, viewer } = signedIn(ctx);
    const [servers, otherSessions] = await Promise.all([
      listManagedServers(deps, session),
      countOtherSessions({ db: deps.db, clock: deps.clock, policy: sessionPolicy(deps.config) }, session),
    ]);
    sendPage(ctx, ServersPage({ viewer, servers, otherSessions }));
  });

  router.get('/sign-in', async (ctx) => {
    if (ctx.state.session) return seeOther(ctx, '/console');
    const localPeople = devSignIn ? await localSignInChoices(deps.db) : undefined;
    sendPage(ctx, SignInPage({ discord: deps.config.platform.kind === 'discord' && Boolean(deps.config.console.discordOAuth), localPeople }));
  });

  router.post('/sign-in/local', async (ctx) => {
    // Off, the route answers like any unknown page.
    if (!devSignIn) throw new ConsoleRefusal('SIGN_IN_UNAVAILABLE', 'There is no such page.');
    const input = { userId: formOf(ctx).get('userId') ?? '', clientAddress: ctx.ip, previousToken: readSessionCookie(ctx) };
    const token = await signInAsLocalMember(signInDeps(deps), input);
    writeSessionCookie(ctx, token);
    seeOther(ctx, '/console');
  });

  router.post('/sign-out', requireSession, async (ctx) => {
    await signOut(deps, signedIn(ctx).session, ctx.ip);
    writeSessionCookie(ctx, null);
    seeOther(ctx, '/console/sign-in');
  });

  // The server list then shows the count of other sessions, read from the table: no claim travels in the URL.
  router.post('/sign-out/others', requireSession, async (ctx) => {
    await signOutOtherSessions(deps, signedIn(ctx).session, ctx.ip);
    seeOther(ctx, '/console');
  });
}
