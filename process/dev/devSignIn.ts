import type { Config } from '../../src/core/config.js';

/**
 * The configuration of `npm run dev` with the local platform: the console's development sign-in is on without
 * setting anything, so the demo guild's owner can sign in from the banner. An explicit CONSOLE_DEV_SIGN_IN wins;
 * with Discord (`--fake-discord`) or NODE_ENV=production it stays off (loadConfig refuses `true` there).
 */
export function withDevSignIn(config: Config): Config {
  const devSignIn = config.console.devSignInSetting ?? (config.env !== 'production' && config.platform.kind === 'local');
  return Object.freeze({ ...config, console: Object.freeze({ ...config.console, devSignIn: devSignIn && config.platform.kind === 'local' }) });
}
