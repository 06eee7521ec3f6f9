import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARDING_REQUIRED_MESSAGE } from '../../process/bot/fatalCloses.js';
import { BOT_INTENTS, BOT_UNAUTHORIZED_MESSAGE, DISALLOWED_INTENTS_MESSAGE } from '../../process/bot/startBot.js';
import { attachFakeGateway, startFakeDiscord, type FakeDiscord, type FakeGateway } from '../../process/infra/fakeDiscord/index.js';
import { useTestDatabase } from '../harness/database.js';

// `npm run bot` as a process: what an operator sees when it cannot run.

const database = useTestDatabase();
// npm may warn about the machine's npm config on stderr; only the process's own lines matter.
const ownLines = (stderr: string) => stderr.split('\n').filter((line) => line !== '' && !line.startsWith('npm warn'));

const bot = (env: Record<string, string>) =>
  promisify(execFile)('npx', ['tsx', 'process/entrypoints/bot.ts'], { env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent', BOT_PORT: '0', ...env } }).then(
    () => ({ code: 0, stderr: '' }),
    (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
  );

let fake: FakeDiscord;
let gateway: FakeGateway;
beforeAll(async () => {
  fake = await startFakeDiscord();
  // The Developer Portal has the Server Members intent off.
  gateway = attachFakeGateway(fake, { disallowedIntents: 1 << 1 });
});
afterAll(() => fake?.close());

describe('npm run bot', () => {
  it('refuses the local platform in one line, with exit code 2, before connecting anywhere', async () => {
    const res = await bot({ PLATFORM: 'local' });
    expect(res.code).toBe(2);
    expect(ownLines(res.stderr)).toEqual(['error: npm run bot needs PLATFORM=discord and DISCORD_TOKEN: the local platform has no gateway to connect to.']);
  });

  it('ends with one clear line and exit code 1 when Discord refuses a privileged intent (4014), instead of idling', async () => {
    const res = await bot({ PLATFORM: 'discord', DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.apiUrl });
    expect(res.code).toBe(1);
    expect(ownLines(res.stderr)).toEqual([`error: ${DISALLOWED_INTENTS_MESSAGE}`]);
    expect(gateway.identifies).toEqual([{ token: fake.token, intents: BOT_INTENTS, shard: [0, 1] }]);
  });

  it('ends with exit code 1 and one clear line when Discord refuses the token, before opening the gateway', async () => {
    const connections = gateway.identifies.length;
    const res = await bot({ PLATFORM: 'discord', DISCORD_TOKEN: 'd3Jvbmc.dG9rZW4.Zm9yLXRoZS1mYWtl', DISCORD_API_URL: fake.apiUrl });
    expect(res.code).toBe(1);
    expect(ownLines(res.stderr)).toEqual([BOT_UNAUTHORIZED_MESSAGE]);
    expect(gateway.identifies).toHaveLength(connections);
  });
});

describe('npm run bot, stopped', () => {
  it('connects, then on SIGTERM closes the gateway connection with a resumable code, keeping the session, and exits 0', async () => {
    const ok = await startFakeDiscord();
    const okGateway = attachFakeGateway(ok);
    try {
      const ready = once(okGateway.events, 'ready');
      const child = spawn('node_modules/.bin/tsx', ['process/entrypoints/bot.ts'], {
        env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent', BOT_PORT: '0', PLATFORM: 'discord', DISCORD_TOKEN: ok.token, DISCORD_API_URL: ok.apiUrl },
      });
      const exited = once(child, 'exit');
      await ready;
      const closed = once(okGateway.events, 'closed');
      child.kill('SIGTERM');
      expect(await exited).toEqual([0, null]);
      // Not 1000 or 1001, which would end the session: the next process resumes it.
      expect(await closed).toEqual([4200]);
      expect(okGateway.connected()).toBe(false);
      expect(okGateway.sessionOf()!.ended).toBeNull();
    } finally {
      await ok.close();
    }
  });

  it('ends with exit code 1 and one line naming the shard count when Discord asks for more shards while connected (4011)', async () => {
    const grown = await startFakeDiscord();
    const grownGateway = attachFakeGateway(grown);
    try {
      const ready = once(grownGateway.events, 'ready');
      const child = spawn('node_modules/.bin/tsx', ['process/entrypoints/bot.ts'], {
        env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent', BOT_PORT: '0', PLATFORM: 'discord', DISCORD_TOKEN: grown.token, DISCORD_API_URL: grown.apiUrl },
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += String(chunk)));
      const exited = once(child, 'exit');
      await ready;
      grownGateway.requireShards(4);
      expect(await exited).toEqual([1, null]);
      expect(ownLines(stderr)).toEqual([`error: ${SHARDING_REQUIRED_MESSAGE(1, 4)}`]);
      expect(grownGateway.identifies).toHaveLength(1);
    } finally {
      await grown.close();
    }
  });
});
