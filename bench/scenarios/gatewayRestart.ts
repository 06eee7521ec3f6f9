import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomInt } from 'node:crypto';
import { XP_PER_MESSAGE } from '../../src/levels/activityXp.js';
import { messageIdAt } from '../../src/tickets/botInput.js';
import { addMember, attachFakeGateway, memberMessagePayload, startFakeDiscord, type FakeGateway } from '../../process/infra/fakeDiscord/index.js';
import { benchSnowflake, registerBenchCommands, seedBotServers, withBenchDatabase } from '../botBench.js';
import { restartInteractions, type RestartInteractions } from './restartInteractions.js';

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
  /** Members' `/rank` beside the messages, `INTERACTIONS_PER_SECOND`: answered in time or not acted on, never late. */
  interactions: RestartInteractions;
}

const MEMBERS = 200;
const INTERACTIONS_PER_SECOND = 5;
const CHANNEL_ID = '1300000000000000001';

/**
 * The bot as operators run it (`npm run bot`, a process of its own) fed MESSAGE_CREATE at `rate` per second over
 * `guilds` servers for `seconds`. A third of the way in it gets SIGTERM and is started again; two thirds in it is
 * killed (SIGKILL) and started again. Every message must be counted exactly once: the stopped process drains and
 * saves its handled position, the killed one saved it each second, and Discord (the fake) replays the rest.
 * Members use `/rank` beside the messages: each is answered within Discord's 3 s, or, when it reached no running bot
 * and is replayed too old, not acted on; none is acted on late.
 */
export async function runGatewayRestart(o: { guilds: number; rate: number; seconds: number }): Promise<GatewayRestartResult> {
  const fake = await startFakeDiscord();
  const gateway = attachFakeGateway(fake);
  try {
    return await withBenchDatabase(4, async (db, url) => {
      const guildIds = await seedBotServers(db, fake, o.guilds, 0, ['levels']);
      const users = Array.from({ length: MEMBERS }, () => benchSnowflake());
      // One member per server uses `/rank`: a member of the server on Discord, as an interaction's invoker is.
      const invokers = guildIds.map((guildId) => {
        const id = benchSnowflake();
        addMember(fake.state, fake.state.guilds.get(guildId)!, { id, username: 'invoker' });
        return id;
      });
      await registerBenchCommands(fake);
      const interactions = restartInteractions(fake, gateway);
      const env = { ...process.env, PLATFORM: 'discord', DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.apiUrl, DATABASE_URL: url, BOT_PORT: '0', LOG_LEVEL: 'silent' };
      const startBotProcess = async (): Promise<ChildProcess> => {
        const connected = once(gateway.events, 'ready').then(() => undefined);
        const resumed = once(gateway.events, 'resume').then(() => undefined);
        // Node itself, not the tsx wrapper: a SIGKILL must end the bot, not a parent that leaves it running.
        const child = spawn(process.execPath, ['--import', 'tsx', 'process/entrypoints/bot.ts'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
        await Promise.race([connected, resumed]);
        return child;
      };
      let child = await startBotProcess();
      const total = o.rate * o.seconds;
      const started = performance.now();
      const at = (fraction: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, started + fraction * o.seconds * 1000 - performance.now())));
      const restart = async (signal: NodeJS.Signals) => {
        const exited = once(child, 'exit');
        child.kill(signal);
        await exited;
        child = await startBotProcess();
      };
      // The operator, beside the sender: a deploy (SIGTERM: the process drains, saves and exits; the next resumes),
      // then a crash (SIGKILL: no drain, no last save) once the restarted process runs.
      const operator = (async () => {
        await at(1 / 3);
        await restart('SIGTERM');
        await at(2 / 3);
        await restart('SIGKILL');
      })();
      let sent = 0;
      let interactionsSent = 0;
      while (sent < total) {
        const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * o.rate));
        for (; sent < due; sent += 1) send(gateway, guildIds[randomInt(guildIds.length)]!, users[randomInt(MEMBERS)]!);
        const asked = Math.floor(((performance.now() - started) / 1000) * INTERACTIONS_PER_SECOND);
        for (; interactionsSent < asked; interactionsSent += 1) {
          const k = randomInt(guildIds.length);
          interactions.send(guildIds[k]!, invokers[k]!);
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await operator;
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
        interactions: interactions.tally(),
      };
    });
  } finally {
    await fake.close();
  }
}

let messageSeq = 0;
function send(gateway: FakeGateway, guildId: string, authorId: string) {
  const at = new Date();
  gateway.dispatch('MESSAGE_CREATE', memberMessagePayload({ id: messageIdAt(at, ++messageSeq), channelId: CHANNEL_ID, guildId, author: { id: authorId, username: 'member' }, at }));
}
