import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { randomInt } from 'node:crypto';
import { createGuild } from '../../src/guild/guildManagement.js';
import { BOT_INVITE_PERMISSIONS, addGuild, addMember, attachFakeGateway, commandInteraction, startFakeDiscord, type CommandUse, type FakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { benchSnowflake, registerBenchCommands, withBenchDatabase } from '../botBench.js';
import { latencySummary, type LatencySummary } from '../latency.js';
import { BENCH_GUILD_ID, memberId } from '../seed.js';
import { seedLevelRows } from './levelsLeaderboard.js';

export interface CommandsResult {
  scenario: 'commands';
  levelRows: number;
  targetRatePerSecond: number;
  achievedRatePerSecond: number;
  sent: number;
  /** From the interaction's creation (its snowflake's time) to the fake receiving its first answer (a message or a deferral). */
  firstAnswerMs: LatencySummary;
  /** To the answer's text: the first answer when it was a message, the edit of the original response after a deferral. */
  textMs: LatencySummary;
  /** First answers later than Discord's 3 s, or none at all (the member saw "This interaction failed"). */
  pastThreeSeconds: number;
  unanswered: number;
  /** Answers the fake refused (late callbacks: 10062, or anything Discord would not take). */
  refusedAnswers: number;
  byCommand: Record<string, { sent: number; firstAnswerMs: LatencySummary }>;
}

/** When Discord made the interaction: the milliseconds since Discord's epoch in its id's top bits. */
const snowflakeTime = (id: string) => Number((BigInt(id) >> 22n) + 1_420_070_400_000n);

const COMMANDS = ['rank', 'balance', 'leaderboard'] as const;
const INVOKERS = 500;
/** After the last send: how long answers may still come (an interaction's token lives 15 minutes; its text, seconds). */
const GRACE_MS = 30_000;

/** The bench server on the fake Discord (the bot holding the invite link's permissions), registered with the service. */
async function seedServer(fake: FakeDiscord, db: Parameters<typeof createGuild>[0], rows: number): Promise<string[]> {
  const ownerId = benchSnowflake();
  const botRole = benchSnowflake();
  const guild = addGuild(fake.state, {
    id: BENCH_GUILD_ID,
    name: 'bench commands',
    ownerId,
    roles: [{ id: botRole, name: 'Community Bot', position: 1, managed: true, permissions: BOT_INVITE_PERMISSIONS }],
    channels: [{ id: benchSnowflake(), type: 0, name: 'general' }],
    members: [{ id: fake.state.bot.id, username: fake.state.bot.username, bot: true, roles: [botRole] }],
  });
  await createGuild(db, { id: BENCH_GUILD_ID, name: 'bench commands', icon: null, locale: 'en', plan: 'pro', features: ['levels', 'bank'], blocked: false, ownerId, botUserId: fake.state.bot.id, actor: { type: 'system' } });
  // Invokers spread over the board, so ranks are read from its whole depth; each a member on Discord too.
  const invokers = Array.from({ length: Math.min(INVOKERS, rows) }, (_, k) => memberId(Math.floor((k * rows) / Math.min(INVOKERS, rows))));
  for (const id of invokers) addMember(fake.state, guild, { id, username: `member${id.slice(-6)}` });
  return invokers;
}

const useOf = (name: (typeof COMMANDS)[number], userId: string): Omit<CommandUse, 'at'> => ({
  guildId: BENCH_GUILD_ID,
  userId,
  name,
  ...(name === 'leaderboard' ? { options: { page: 1 + randomInt(1_000) } } : {}),
});

/**
 * `/rank`, `/balance` and `/leaderboard` in turn at `rate` interactions/s for `seconds`, with `rows` level rows (and
 * their rank snapshot), fed through the fake gateway to the bot as operators run it (`npm run bot`, its own process).
 * Each answer is timed from the interaction's creation, the time its snowflake carries (when Discord made it), to the
 * fake receiving the answer, as the member's 3 s are.
 */
export async function runCommands(o: { rows: number; rate: number; seconds: number }): Promise<CommandsResult> {
  const fake = await startFakeDiscord();
  const gateway = attachFakeGateway(fake);
  let child: ChildProcess | undefined;
  try {
    return await withBenchDatabase(4, async (db, url) => {
      const invokers = await seedServer(fake, db, o.rows);
      const levelRows = await seedLevelRows(db, o.rows, (line) => console.log(`[bench] ${line}`));
      await registerBenchCommands(fake);
      const env = { ...process.env, PLATFORM: 'discord', DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.apiUrl, DATABASE_URL: url, BOT_PORT: '0', LOG_LEVEL: 'silent' };
      const ready = once(gateway.events, 'ready');
      child = spawn(process.execPath, ['--import', 'tsx', 'process/entrypoints/bot.ts'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
      await ready;

      const sentAt = new Map<string, { name: string; createdAt: number }>();
      const send = (name: (typeof COMMANDS)[number]) => {
        const payload = commandInteraction(fake.state, { ...useOf(name, invokers[randomInt(invokers.length)]!), at: new Date() });
        sentAt.set(payload.token, { name, createdAt: snowflakeTime(payload.id) });
        gateway.dispatch('INTERACTION_CREATE', payload);
        return payload.token;
      };
      // Warm-up, not counted: the bot has the server (GUILD_CREATE) and its pools are open once one answer came.
      const warm = send('rank');
      while (!fake.state.interactionAnswers.some((a) => a.token === warm)) await new Promise((resolve) => setTimeout(resolve, 50));
      sentAt.clear();
      const answersBefore = fake.state.interactionAnswers.length;
      const requestsBefore = fake.requests.length;

      const total = o.rate * o.seconds;
      const started = performance.now();
      let sent = 0;
      while (sent < total) {
        const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * o.rate));
        for (; sent < due; sent += 1) send(COMMANDS[sent % COMMANDS.length]!);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const sendSeconds = (performance.now() - started) / 1000;
      const texted = () => new Set(fake.state.interactionAnswers.slice(answersBefore).filter((a) => a.kind === 'edit' || (a.body as { type?: number } | null)?.type === 4).map((a) => a.token));
      const deadline = performance.now() + GRACE_MS;
      while (texted().size < sentAt.size && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      return summarise(fake, o, sentAt, answersBefore, requestsBefore, levelRows, Math.round(total / sendSeconds));
    });
  } finally {
    if (child && child.exitCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    await fake.close();
  }
}

function summarise(
  fake: FakeDiscord,
  o: { rate: number },
  sentAt: Map<string, { name: string; createdAt: number }>,
  answersBefore: number,
  requestsBefore: number,
  levelRows: number,
  achievedRatePerSecond: number,
): CommandsResult {
  const first = new Map<string, number>();
  const text = new Map<string, number>();
  for (const a of fake.state.interactionAnswers.slice(answersBefore)) {
    const issued = sentAt.get(a.token);
    if (!issued) continue;
    if (a.kind === 'callback') first.set(a.token, a.at - issued.createdAt);
    if (a.kind === 'edit' || (a.body as { type?: number } | null)?.type === 4) text.set(a.token, a.at - issued.createdAt);
  }
  const byCommand: CommandsResult['byCommand'] = {};
  for (const name of COMMANDS) {
    const tokens = [...sentAt].filter(([, s]) => s.name === name).map(([token]) => token);
    byCommand[name] = { sent: tokens.length, firstAnswerMs: latencySummary(tokens.flatMap((t) => (first.has(t) ? [first.get(t)!] : []))) };
  }
  const refusedAnswers = fake.requests.slice(requestsBefore).filter((r) => /^\/(interactions|webhooks)\//.test(r.path) && r.status >= 400).length;
  return {
    scenario: 'commands',
    levelRows,
    targetRatePerSecond: o.rate,
    achievedRatePerSecond,
    sent: sentAt.size,
    firstAnswerMs: latencySummary([...first.values()]),
    textMs: latencySummary([...text.values()]),
    pastThreeSeconds: [...sentAt.keys()].filter((t) => !first.has(t) || first.get(t)! > 3_000).length,
    unanswered: sentAt.size - first.size,
    refusedAnswers,
    byCommand,
  };
}
