import { beginDiscordSignIn, completeDiscordSignIn, PENDING_SIGN_IN_SECONDS } from '../../../src/console/discordSignIn.js';
import { ConsoleRefusal } from '../../../src/console/errors.js';
import type { AppDeps } from '../../context.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { seeOther } from '../render.js';
import { readSessionCookie, writeSessionCookie } from '../sessionCookie.js';
import { clearSignInCookie, readSignInCookie, setSignInCookie } from '../signInCookie.js';
import { signInDeps } from '../sessionPolicy.js';

const one = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** Discord's OAuth2 sign-in: only with PLATFORM=discord and the console's application configured. */
export function discordSignInRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const { platform } = deps.config;
  const oauth = deps.config.console.discordOAuth;
  const flowDeps = () => {
    if (platform.kind !== 'discord' || !oauth) throw new ConsoleRefusal('SIGN_IN_UNAVAILABLE', 'There is no such page.');
    return { ...signInDeps(deps), oauth: { ...oauth, apiUrl: platform.apiUrl } };
  };

  router.get('/sign-in/discord', async (ctx) => {
    const { authorizeUrl, browserNonce } = await beginDiscordSignIn(flowDeps(), ctx.ip);
    setSignInCookie(ctx, browserNonce, PENDING_SIGN_IN_SECONDS);
    ctx.redirect(authorizeUrl);
  });

  router.get('/oauth/callback', async (ctx: ConsoleContext) => {
    const token = await completeDiscordSignIn(flowDeps(), {
      code: one(ctx.query.code),
      state: one(ctx.query.state),
      error: one(ctx.query.error),
      browserNonce: readSignInCookie(ctx),
      previousToken: readSessionCookie(ctx),
      clientAddress: ctx.ip,
    });
    clearSignInCookie(ctx);
    writeSessionCookie(ctx, token);
    seeOther(ctx, '/console');
  });
}
