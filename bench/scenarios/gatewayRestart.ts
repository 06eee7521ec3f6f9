import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomInt } from 'node:crypto';
import { XP_PER_MESSAGE } from '../../src/levels/activityXp.js';
import { attachFakeGateway, startFakeDiscord, type FakeGateway } from '../../process/infra/fakeDiscord/index.js';
import { benchSnowflake, seedBotServers, withBenchDatabase } from '../botBench.js';

export interface GatewayRestartResult {
  scenario: 'gateway-restart';
  guilds: number;
  targetRatePerSecond: number;
  /** Messages sent over the run, and the rate the sender kept. */
  sent: number;
  achievedRatePerSecond: number;
  /** Counted once each: counted = sent and XP = sent × XP per message mean none lost and none doubled. */
  counted: number;
  lost: number;
  xpExpected: number;
  xpApplied: number;
  /** From the last message sent to the last counted (the backlog the restarts left). */
  catchUpMs: number;
  /** Gateway identifies (1: every restart resumed) and resumes. */
  identifies: number;
  resumes: number;
  invalidRequests: number;
}

const MEMBERS = 200;

/**
 * The bot as operators run it (`npm run bot`, a process of its own) fed MESSAGE_CREATE at `rate` per second over
 * `guilds` servers for `seconds`. A third of the way in it gets SIGTERM and is started again; two thirds in it is
 * killed (SIGKILL) and started again. Every message must be counted exactly once: the stopped process drains and
 * saves its handled position, the killed one saved it each second, and Discord (the fake) replays the rest.
 */
export async function runGatewayRestart(o: { guilds: number; rate: number; seconds: number }): Promise<GatewayRestartResult> {
  const fake = await startFakeDiscord();
  const gateway = attachFakeGateway(fake);
  try {
    return await withBenchDatabase(4, async (db, url) => {
      const guildIds = await seedBotServers(db, fake, o.guilds, 0, ['levels']);
      const users = Array.from({ length: MEMBERS }, () => benchSnowflake());
      const env = { ...process.env, PLATFORM: 'discord', DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.apiUrl, DATABASE_URL: url, BOT_PORT: '0', LOG_LEVEL: 'silent' };
      const startBotProcess = async (): Promise<ChildProcess> => {
        const connected = once(gateway.events, 'ready').then(() => undefined);
        const resumed = once(gateway.events, 'resume').then(() => undefined);
        const child = spawn('node_modules/.bin/tsx', ['process/entrypoints/bot.ts'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
        await Promise.race([connected, resumed]);
        return child;
      };
      let child = await startBotProcess();
      const total = o.rate * o.seconds;
      const started = performance.now();
      let sent = 0;
      const restarts = [Math.floor(total / 3), Math.floor((2 * total) / 3)];
      while (sent < total) {
        const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * o.rate));
        while (sent < due) {
          send(gateway, guildIds[randomInt(guildIds.length)]!, users[randomInt(MEMBERS)]!);
          sent += 1;
          if (sent === restarts[0]) {
            // Deploy: SIGTERM, the process drains and exits; the next resumes.
            const exited = once(child, 'exit');
            child.kill('SIGTERM');
            void exited.then(async () => (child = await startBotProcess()));
          } else if (sent === restarts[1]) {
            // Crash: no drain, no last save.
            const exited = once(child, 'exit');
            child.kill('SIGKILL');
            void exited.then(async () => (child = await startBotProcess()));
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const sentAt = performance.now();
      const counted = async () => Number((await db.selectFrom('level_counted_messages').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
      const deadline = sentAt + 120_000;
      while ((await counted()) < total && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      const catchUpMs = Math.round(performance.now() - sentAt);
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
      const n = await counted();
      const xp = await db.selectFrom('level_members').select((eb) => eb.fn.sum<string>('xp').as('xp')).executeTakeFirstOrThrow();
      return {
        scenario: 'gateway-restart' as const,
        guilds: o.guilds,
        targetRatePerSecond: o.rate,
        sent: total,
        achievedRatePerSecond: Math.round(total / ((sentAt - started) / 1000)),
        counted: n,
        lost: total - n,
        xpExpected: total * XP_PER_MESSAGE,
        xpApplied: Number(xp.xp ?? 0),
        catchUpMs,
        identifies: gateway.identifies.length,
        resumes: gateway.resumes.length,
        invalidRequests: fake.invalidRequests(),
      };
    });
  } finally {
    await fake.close();
  }
}

let messageSeq = 0;
function send(gateway: FakeGateway, guildId: string, authorId: string) {
  gateway.dispatch('MESSAGE_CREATE', {
    id: `${(BigInt(Date.now() - 1_420_070_400_000) << 22n) | BigInt(++messageSeq % 4_194_304)}`,
    channel_id: '1300000000000000001',
    guild_id: guildId,
    author: { id: authorId, username: 'member', discriminator: '0', global_name: null, avatar: null },
    content: 'hello',
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: [],
    pinned: false,
    type: 0,
  });
}
