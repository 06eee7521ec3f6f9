import { pino } from 'pino';
import { systemClock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/core/config.js';
import { createBotDeps } from '../../process/bot/botDeps.js';
import { RECONCILE_MEMBERS } from '../../process/bot/handlers/reconcileMembers.js';
import { startBot } from '../../process/bot/startBot.js';
import { attachFakeGateway, startFakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { seedBotServers, withBenchDatabase } from '../botBench.js';

export interface GatewayReadyResult {
  scenario: 'gateway-ready';
  guilds: number;
  membersPerGuild: number;
  /** From starting the bot to Discord's READY, to every GUILD_CREATE handled, and to every member list reconciled. */
  readyMs: number;
  guildsHandledMs: number;
  reconciledMs: number;
  /** REST requests the session cost, by kind (member pages, invite reads, anything else). */
  requests: { memberPages: number; invites: number; other: number };
  /** 429s other than Discord's `shared` scope (goal 0), and every answer Discord counts toward its ban. */
  rateLimited: number;
  invalidRequests: number;
  /** Gateway connections opened (1: no reconnect loop) and resumes. */
  connections: number;
  resumes: number;
}

/**
 * One bot process identifying one session of `guilds` servers with `members` members each, all with the Members
 * feature (every server reconciled: the most REST a new session costs), against the fake Discord with its global
 * limit of 50 requests/s. Member lists are paced at the bot's default share (memberReconciler.ts).
 */
export async function runGatewayReady(o: { guilds: number; members: number }): Promise<GatewayReadyResult> {
  const fake = await startFakeDiscord({ rateLimits: { globalPerSecond: 50 } });
  const gateway = attachFakeGateway(fake);
  try {
    return await withBenchDatabase(20, async (db) => {
      await seedBotServers(db, fake, o.guilds, o.members, ['members']);
      const config = loadConfig({ PLATFORM: 'discord', DISCORD_TOKEN: fake.token, DISCORD_API_URL: fake.apiUrl, DATABASE_POOL_MAX: '20' });
      const started = performance.now();
      let readyAt = 0;
      gateway.events.once('ready', () => (readyAt = performance.now()));
      const deps = createBotDeps(config, db, systemClock, pino({ level: 'silent' }));
      const counts = { GUILD_CREATE: 0, [RECONCILE_MEMBERS]: 0 } as Record<string, number>;
      const at: Record<string, number> = {};
      const bot = await startBot(config, deps);
      // Attached as startBot resolves: handlings end on later I/O, so none is missed.
      const done = new Promise<void>((resolve) => {
        bot.events.on('handled', (t: string) => {
          if (!(t in counts)) return;
          counts[t] = (counts[t] ?? 0) + 1;
          // A full-size session takes many minutes: a line per tenth shows where the time goes.
          if (counts[t] % Math.max(1, Math.floor(o.guilds / 10)) === 0) {
            console.log(`[bench] gateway-ready: ${t} ${counts[t]} of ${o.guilds} at ${Math.round((performance.now() - started) / 1000)} s`);
          }
          if (counts[t] === o.guilds) at[t] = performance.now();
          if (counts.GUILD_CREATE === o.guilds && counts[RECONCILE_MEMBERS] === o.guilds) resolve();
        });
      });
      await done;
      await bot.stop();
      const paths = fake.requests.map((r) => r.path);
      const memberPages = paths.filter((p) => p.endsWith('/members')).length;
      const invites = paths.filter((p) => p.endsWith('/invites')).length;
      return {
        scenario: 'gateway-ready' as const,
        guilds: o.guilds,
        membersPerGuild: o.members,
        readyMs: Math.round(readyAt - started),
        guildsHandledMs: Math.round(at.GUILD_CREATE! - started),
        reconciledMs: Math.round(at[RECONCILE_MEMBERS]! - started),
        requests: { memberPages, invites, other: paths.length - memberPages - invites },
        rateLimited: fake.requests.filter((r) => r.status === 429).length,
        invalidRequests: fake.invalidRequests(),
        connections: gateway.connections.length,
        resumes: gateway.resumes.length,
      };
    });
  } finally {
    await fake.close();
  }
}
