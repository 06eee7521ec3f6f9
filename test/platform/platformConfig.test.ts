import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';

const TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB';

describe('platform settings', () => {
  it('default to the local platform', () => {
    expect(loadConfig({}).platform).toEqual({ kind: 'local' });
  });

  it('discord mode takes the token and the API root (trailing slash dropped), defaulting to Discord', () => {
    expect(loadConfig({ PLATFORM: 'discord', DISCORD_TOKEN: TOKEN }).platform).toEqual({ kind: 'discord', token: TOKEN, apiUrl: 'https://discord.com/api' });
    expect(loadConfig({ PLATFORM: 'discord', DISCORD_TOKEN: TOKEN, DISCORD_API_URL: 'http://127.0.0.1:4000/api/' }).platform).toEqual({
      kind: 'discord',
      token: TOKEN,
      apiUrl: 'http://127.0.0.1:4000/api',
    });
  });

  it.each([
    [{ PLATFORM: 'discord' }, 'DISCORD_TOKEN: must be set with PLATFORM=discord (the bot token from the Developer Portal)'],
    [{ PLATFORM: 'discord', DISCORD_TOKEN: `Bot ${TOKEN}` }, 'DISCORD_TOKEN: is not a bot token (three dot-separated parts, without the "Bot " prefix)'],
    [{ PLATFORM: 'discord', DISCORD_TOKEN: 'secret-value' }, 'DISCORD_TOKEN: is not a bot token (three dot-separated parts, without the "Bot " prefix)'],
    [{ PLATFORM: 'discord', DISCORD_TOKEN: TOKEN, DISCORD_API_URL: 'ftp://example.com/api' }, 'DISCORD_API_URL: must be an http(s) URL such as https://discord.com/api'],
    [{ PLATFORM: 'discord', DISCORD_TOKEN: TOKEN, DISCORD_API_URL: 'not a url' }, 'DISCORD_API_URL: must be an http(s) URL such as https://discord.com/api'],
  ])('%o stops start-up with one line naming the setting', (env, line) => {
    let message = '';
    try {
      loadConfig(env);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe(`Invalid configuration:\n  ${line}`);
  });

  it.each(['slack', 'Discord', ''])('PLATFORM=%j is refused, naming the setting', (value) => {
    expect(() => loadConfig({ PLATFORM: value })).toThrow(/^Invalid configuration:\n {2}PLATFORM: /);
  });

  it('a malformed token never appears in the message', () => {
    let message = '';
    try {
      loadConfig({ PLATFORM: 'discord', DISCORD_TOKEN: 'secret-value' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).not.toContain('secret-value');
  });

  it('the token is ignored in local mode', () => {
    expect(loadConfig({ DISCORD_TOKEN: 'anything' }).platform).toEqual({ kind: 'local' });
  });
});
