import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { systemClock } from '../../src/core/clock.js';
import { createBanLatch } from '../../src/platform/discord/banLatch.js';
import { discordEgressHandler } from '../../process/egress/discordEgress.js';
import { BOT_INVITE_PERMISSIONS, addGuild, startFakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import type { DiscordEffectsWorkerArgs, DiscordEffectsWorkerDone } from '../discordEffectsWorker.js';

export interface DiscordEffectsResult {
  scenario: 'discord-effects';
  changes: number;
  guilds: number;
  /** Worker processes sending the changes, all through one egress (process/egress). */
  workers: number;
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
 * Role changes from `workers` worker processes (each its own REST client, `concurrency` changes at a time as a worker
 * runs activities, each retried with backoff on an outage as Temporal would) through one Discord egress
 * (`@discordjs/proxy`, process/egress) to the fake with Discord's limits (a bucket of 5 per 5 s per route and server,
 * 50 requests/s globally): the changes finish at the rate the buckets allow, under 1% of requests meet a 429, none is
 * lost or doubled.
 */
export async function measureDiscordEffects(options: { changes?: number; guilds?: number; concurrency?: number; workers?: number } = {}): Promise<DiscordEffectsResult> {
  const changes = options.changes ?? 1_000;
  const guilds = options.guilds ?? 50;
  const workers = options.workers ?? 2;
  const fake = await startFakeDiscord({ rateLimits: { route: ROUTE, globalPerSecond: GLOBAL_PER_SECOND } });
  const egress = createServer(discordEgressHandler({ upstreamUrl: fake.apiUrl, latch: createBanLatch({ clock: systemClock, logger: pino({ level: 'silent' }) }), logger: pino({ level: 'silent' }) }));
  await new Promise<void>((resolve) => egress.listen(0, '127.0.0.1', resolve));
  const apiUrl = `http://127.0.0.1:${(egress.address() as AddressInfo).port}/api`;
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
    const started = performance.now();
    const concurrency = Math.ceil((options.concurrency ?? 100) / workers);
    const done = await Promise.all(
      Array.from({ length: workers }, (_, w) =>
        runWorker({ apiUrl, token: fake.token, roleId, targets: targets.filter((_, i) => i % workers === w), concurrency }),
      ),
    );
    const retries = done.reduce((sum, d) => sum + d.retries, 0);
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
      workers,
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
    egress.closeAllConnections();
    await new Promise((resolve) => egress.close(resolve));
    await fake.close();
  }
}

/** Forks bench/discordEffectsWorker.ts (with tsx) and resolves when its changes are all done. */
function runWorker(args: DiscordEffectsWorkerArgs): Promise<DiscordEffectsWorkerDone> {
  const child = fork(new URL('../discordEffectsWorker.ts', import.meta.url), [JSON.stringify(args)], { execArgv: ['--import', 'tsx'] });
  return new Promise((resolve, reject) => {
    let result: DiscordEffectsWorkerDone | undefined;
    child.once('error', reject);
    child.on('message', (message: DiscordEffectsWorkerDone) => (result = message));
    child.once('exit', (code) => (result && code === 0 ? resolve(result) : reject(new Error(`a discord-effects worker exited with ${code}`))));
  });
}

export const runDiscordEffects = (changes?: number) => measureDiscordEffects({ changes });
