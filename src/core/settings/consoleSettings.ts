import type { z } from 'zod';

interface ConsoleEnv {
  NODE_ENV: 'development' | 'test' | 'production';
  PLATFORM: 'local' | 'discord';
  CONSOLE_DEV_SIGN_IN?: boolean;
  CONSOLE_REDIRECT_URI?: string;
}

const isLoopbackHost = (hostname: string) => hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);

/**
 * The settings that would open the console to anyone are refused where they could reach real people: the local
 * platform (whose development sign-in needs no password and, fed by the bot's mirror, lists real owners) and a
 * sign-in callback over plain http, both with NODE_ENV=production.
 */
export function checkConsoleEnv(e: ConsoleEnv, ctx: z.RefinementCtx): void {
  const production = e.NODE_ENV === 'production';
  if (production && e.PLATFORM === 'local') {
    ctx.addIssue({
      code: 'custom',
      path: ['PLATFORM'],
      message: 'must be discord with NODE_ENV=production (the local platform is for development and tests; set PLATFORM=discord)',
    });
  }
  if (e.CONSOLE_DEV_SIGN_IN === true && production) {
    ctx.addIssue({
      code: 'custom',
      path: ['CONSOLE_DEV_SIGN_IN'],
      message: 'must not be true with NODE_ENV=production: the development sign-in lets anyone in without a password',
    });
  } else if (e.CONSOLE_DEV_SIGN_IN === true && e.PLATFORM !== 'local') {
    ctx.addIssue({ code: 'custom', path: ['CONSOLE_DEV_SIGN_IN'], message: 'needs PLATFORM=local (with Discord, managers sign in with Discord)' });
  }
  if (production && e.CONSOLE_REDIRECT_URI) {
    const uri = new URL(e.CONSOLE_REDIRECT_URI);
    if (uri.protocol === 'http:' && !isLoopbackHost(uri.hostname)) {
      ctx.addIssue({
        code: 'custom',
        path: ['CONSOLE_REDIRECT_URI'],
        message: 'must be an https:// URL with NODE_ENV=production (the sign-in code would cross the network in clear)',
      });
    }
  }
}
