import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { withDevSignIn } from '../../process/dev/devSignIn.js';
import { useTestDatabase } from '../harness/database.js';
import { PRODUCTION_ENV } from '../harness/productionEnv.js';
import { useTestApp } from '../harness/testApp.js';
import { consoleClient, errorCodeOf, managedGuild } from './consoleClient.js';

const messageOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return 'accepted';
  } catch (err) {
    return (err as Error).message;
  }
};

describe('the settings that would open the console to anyone', () => {
  it.each([
    [
      'PLATFORM unset with NODE_ENV=production',
      { NODE_ENV: 'production' },
      'PLATFORM: must be discord with NODE_ENV=production (the local platform is for development and tests; set PLATFORM=discord)',
    ],
    [
      'PLATFORM=local with NODE_ENV=production',
      { NODE_ENV: 'production', PLATFORM: 'local' },
      'PLATFORM: must be discord with NODE_ENV=production (the local platform is for development and tests; set PLATFORM=discord)',
    ],
    [
      'the development sign-in with NODE_ENV=production',
      { ...PRODUCTION_ENV, CONSOLE_DEV_SIGN_IN: 'true' },
      'CONSOLE_DEV_SIGN_IN: must not be true with NODE_ENV=production: the development sign-in lets anyone in without a password',
    ],
    [
      'the development sign-in with Discord',
      { PLATFORM: 'discord', DISCORD_TOKEN: PRODUCTION_ENV.DISCORD_TOKEN, CONSOLE_DEV_SIGN_IN: '1' },
      'CONSOLE_DEV_SIGN_IN: needs PLATFORM=local (with Discord, managers sign in with Discord)',
    ],
    [
      'a plain-http callback on a public host in production',
      { ...PRODUCTION_ENV, DISCORD_CLIENT_ID: '123456789012345678', DISCORD_CLIENT_SECRET: 's', CONSOLE_REDIRECT_URI: 'http://console.example.com/console/oauth/callback' },
      'CONSOLE_REDIRECT_URI: must be an https:// URL with NODE_ENV=production (the sign-in code would cross the network in clear)',
    ],
    ['a misspelt flag', { CONSOLE_DEV_SIGN_IN: 'yes' }, 'CONSOLE_DEV_SIGN_IN: '],
  ])('refuses %s at start, naming the setting', (_, env, line) => {
    expect(messageOf(env)).toMatch(new RegExp(`^Invalid configuration:\\n  ${line.replace(/[()]/g, '\\$&')}`));
  });

  it.each([
    ['https in production', { ...PRODUCTION_ENV, CONSOLE_REDIRECT_URI: 'https://console.example.com/console/oauth/callback' }],
    ['http on loopback in production', { ...PRODUCTION_ENV, CONSOLE_REDIRECT_URI: 'http://127.0.0.1:3000/console/oauth/callback' }],
    ['http on a public host in development', { PLATFORM: 'discord', DISCORD_TOKEN: PRODUCTION_ENV.DISCORD_TOKEN, CONSOLE_REDIRECT_URI: 'http://console.example.com/cb' }],
  ])('accepts a callback over %s', (_, env) => {
    expect(messageOf({ DISCORD_CLIENT_ID: '123456789012345678', DISCORD_CLIENT_SECRET: 's', ...env })).toBe('accepted');
  });

  it('leaves the development sign-in off unless asked for, whatever the platform', () => {
    expect(loadConfig({}).console.devSignIn).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).console.devSignIn).toBe(false);
    expect(loadConfig(PRODUCTION_ENV).console.devSignIn).toBe(false);
    expect(loadConfig({ CONSOLE_DEV_SIGN_IN: 'true' }).console.devSignIn).toBe(true);
  });

  it.each([
    [{}, true],
    [{ CONSOLE_DEV_SIGN_IN: 'false' }, false],
    [{ PLATFORM: 'discord', DISCORD_TOKEN: PRODUCTION_ENV.DISCORD_TOKEN }, false],
    [PRODUCTION_ENV, false],
  ])('npm run dev with %j turns it on: %s', (env, on) => {
    const config = withDevSignIn(loadConfig(env));
    expect(config.console.devSignIn).toBe(on);
    expect(Object.isFrozen(config.console)).toBe(true);
  });
});

describe('a console without the development sign-in (CONSOLE_DEV_SIGN_IN unset, local platform)', () => {
  const database = useTestDatabase();
  const app = useTestApp(() => database.db, { env: { CONSOLE_DEV_SIGN_IN: 'false' } });

  it('neither lists the local members nor signs anyone in: 404, no session', async () => {
    const guild = await managedGuild(database.db);
    const client = consoleClient(app.baseUrl);
    const page = await client.get('/console/sign-in');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('/console/sign-in/local');
    expect(page.text).not.toContain(guild.ownerId);
    expect(page.text).toContain('CONSOLE_DEV_SIGN_IN=true');
    const res = await client.post('/console/sign-in/local', { userId: guild.ownerId }, { csrf: null });
    expect(res.status).toBe(404);
    expect(errorCodeOf(res)).toBe('SIGN_IN_UNAVAILABLE');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await database.db.selectFrom('console_sessions').selectAll().execute()).toEqual([]);
  });
});

describe('CONSOLE_OPERATOR_USER_IDS', () => {
  it('is a list of user ids, empty when unset', () => {
    expect(loadConfig({}).console.operatorUserIds).toEqual([]);
    expect(loadConfig({ CONSOLE_OPERATOR_USER_IDS: '123456789012345678,98765432109876543' }).console.operatorUserIds).toEqual(['123456789012345678', '98765432109876543']);
  });

  it.each(['admin', '123456789012345678,', '123456789012345678 98765432109876543'])('refuses %j at start', (value) => {
    expect(messageOf({ CONSOLE_OPERATOR_USER_IDS: value })).toBe(
      'Invalid configuration:\n  CONSOLE_OPERATOR_USER_IDS: must be user ids (17 to 20 digits) separated by commas',
    );
  });
});
