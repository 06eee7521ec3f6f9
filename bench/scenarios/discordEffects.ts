import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { systemClock } from '../../src/core/clock.js';
import { PlatformUnavailableError } from '../../src/core/platform.js';
import { createDiscordPlatform } from '../../src/platform/discord/discordPlatform.js';
import { BOT_INVITE_PERMISSIONS, addGuild, startFakeDiscord } from '../../process/infra/fakeDiscord/index.js';

export interface DiscordEffectsResult {
  scenario: 'discord-effects';
  changes: number;
  guilds: number;
  seconds: number;
  changesPerSecond: number;
  /**
   * The fastest the limits allow: each change is a member read and a role PUT, each in a bucket of 5 per 5 s per
   * server (windows start on the first request, so n requests need (ceil(n/5) - 1) windows), all under 50 requests/s.
   */
  fastestSeconds: number;
  requests: number;
  rateLimited: number;
  rateLimitedShare: number;
  /** Members without the role at the end, and members whose role was given by more than one successful PUT. */
  lost: number;
  doubled: number;
  retries: number;
}

const ROUTE = { limit: 5, windowMs: 5_000 };
const GLOBAL_PER_SECOND = 50;

/**
 * Role changes through the Discord adapter against the fake with Discord's limits (a bucket of 5 per 5 s per route and
 * server, 50 requests/s globally), `concurrency` at a time as a worker runs activities, each retried with backoff on an
 * outage as Temporal would: the changes finish at the rate the buckets allow, few requests meet a 429, none is lost or doubled.
 */
export async function measureDiscordEffects(options: { changes?: number; guilds?: number; concurrency?: number } = {}): Promise<DiscordEffectsResult> {
  const changes = options.changes ?? 1_000;
  const guilds = options.guilds ?? 50;
  const fake = await startFakeDiscord({ rateLimits: { route: ROUTE, globalPerSecond: GLOBAL_PER_SECOND } });
  try {
    const roleId = '1300000000000000001';
    const byGuild: Array<Array<{ guildId: string; userId: string }>> = [];
    for (let g = 0; g < guilds; g++) {
      const guildId = String(1_400_000_000_000_000_000n + BigInt(g));
      const members = Array.from({ length: Math.ceil(changes / guilds) }, (_, i) => String(1_500_000_000_000_000_000n + BigInt(g * 100_000 + i)));
      // The bot is a member with the invite link's role, above the reward role: the fake refuses as Discord would otherwise.
      const botRoleId = '1300000000000000002';
      addGuild(fake.state, {
        id: guildId,
        name: `Bench ${g}`,
        ownerId: members[0]!,
        roles: [
          { id: botRoleId, name: 'Community Bot', position: 2, managed: true, permissions: BOT_INVITE_PERMISSIONS },
          { id: roleId, name: 'Reward', position: 1 },
        ],
        channels: [],
        members: [...members.map((id) => ({ id, username: `m${id.slice(-5)}` })), { id: fake.state.bot.id, username: 'Community Bot', bot: true, roles: [botRoleId] }],
      });
      byGuild.push(members.map((userId) => ({ guildId, userId })));
    }
    // Interleaved across servers, as level-ups arrive from many servers at once.
    const targets = byGuild[0]!.flatMap((_, i) => byGuild.map((members) => members[i]!)).slice(0, changes);
    const platform = createDiscordPlatform({ token: fake.token, apiUrl: fake.apiUrl, clock: systemClock, logger: pino({ level: 'silent' }) });
    let retries = 0;
    const changeOnce = async (t: { guildId: string; userId: string }) => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await platform.changeRole(t.guildId, t.userId, roleId, 'add', 'Bench: level reward');
        } catch (err) {
          if (!(err instanceof PlatformUnavailableError)) throw err;
          retries++;
          await sleep(Math.min(1000 * 2 ** attempt, 30_000));
        }
      }
    };
    const started = performance.now();
    const queue = [...targets];
    await Promise.all(
      Array.from({ length: options.concurrency ?? 100 }, async () => {
        for (let t = queue.shift(); t; t = queue.shift()) await changeOnce(t);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const puts = new Map<string, number>();
    for (const r of fake.requests) if (r.method === 'PUT' && r.status === 204) puts.set(r.path, (puts.get(r.path) ?? 0) + 1);
    const rateLimited = fake.requests.filter((r) => r.status === 429).length;
    const lost = targets.filter((t) => !fake.state.guilds.get(t.guildId)!.members.get(t.userId)!.roles.includes(roleId)).length;
    const perGuild = Math.ceil(changes / guilds);
    const bucketSeconds = (Math.ceil(perGuild / ROUTE.limit) - 1) * (ROUTE.windowMs / 1000);
    return {
      scenario: 'discord-effects',
      changes,
      guilds,
      seconds: Math.round(seconds * 10) / 10,
      changesPerSecond: Math.round((changes / seconds) * 10) / 10,
      fastestSeconds: Math.max(bucketSeconds, (2 * changes) / GLOBAL_PER_SECOND),
      requests: fake.requests.length,
      rateLimited,
      rateLimitedShare: Math.round((rateLimited / fake.requests.length) * 10_000) / 100,
      lost,
      doubled: [...puts.values()].filter((n) => n > 1).length,
      retries,
    };
  } finally {
    await fake.close();
  }
}

export const runDiscordEffects = () => measureDiscordEffects();
