import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/core/clock.js';
import { platformMetrics, scrape } from '../../src/core/metrics.js';
import { createDiscordPlatform } from '../../src/platform/discord/discordPlatform.js';
import { routeTemplate } from '../../src/platform/discord/discordMetrics.js';
import { BOT_INVITE_PERMISSIONS, addGuild, rateLimited, serverError, startFakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { snowflake } from '../harness/fixtures.js';

// The Discord adapter counts every request it gets an answer to, and every 429, into the counters it is given (the
// process's, as process/wiring.ts passes them), so a scrape of /metrics shows them.

const fake = await startFakeDiscord();
afterAll(() => fake.close());
const clock = fixedClock(new Date('2026-06-01T12:00:00.000Z'));
const logger = pino({ level: 'silent' });

/** The value of one series in the scrape, 0 while it has none. */
async function series(name: string, labels: Record<string, string>): Promise<number> {
  const text = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(',');
  const line = (await scrape()).body.split('\n').find((l) => l.startsWith(`${name}{${text}} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

function seeded() {
  const guildId = snowflake();
  const alice = snowflake();
  const role = snowflake();
  const botRole = snowflake();
  addGuild(fake.state, {
    id: guildId,
    name: 'Metrics',
    ownerId: alice,
    roles: [
      { id: botRole, name: 'Community Bot', position: 2, managed: true, permissions: BOT_INVITE_PERMISSIONS },
      { id: role, name: 'Member', position: 1 },
    ],
    channels: [],
    members: [
      { id: alice, username: 'alice' },
      { id: fake.state.bot.id, username: 'Community Bot', bot: true, roles: [botRole] },
    ],
  });
  const platform = createDiscordPlatform({ token: fake.token, apiUrl: fake.apiUrl, clock, logger, metrics: platformMetrics });
  return { guildId, alice, role, platform };
}

describe('platform request metrics', () => {
  it('route labels carry templates, never ids', () => {
    expect(routeTemplate('/guilds/123456789012345678/members/223456789012345678/roles/323456789012345678')).toBe('/guilds/:id/members/:id/roles/:id');
    expect(routeTemplate('/guilds/123456789012345678?with_counts=true')).toBe('/guilds/:id');
    expect(routeTemplate('/users/@me')).toBe('/users/@me');
  });

  it('answered requests by route, method and outcome: ok, client_error, server_error', async () => {
    const { guildId, platform } = seeded();
    const roles = { route: '/guilds/:id/roles', method: 'GET' };
    const member = { route: '/guilds/:id/members/:id', method: 'GET' };
    const before = {
      ok: await series('platform_requests_total', { ...roles, outcome: 'ok' }),
      server: await series('platform_requests_total', { ...roles, outcome: 'server_error' }),
      client: await series('platform_requests_total', { ...member, outcome: 'client_error' }),
    };
    fake.fail({ method: 'GET', path: `/guilds/${guildId}/roles`, answer: serverError(502) });
    await expect(platform.listRoles(guildId)).rejects.toThrow();
    await platform.listRoles(guildId);
    expect(await platform.getMember(guildId, snowflake())).toBeUndefined();
    expect(await series('platform_requests_total', { ...roles, outcome: 'server_error' })).toBe(before.server + 1);
    expect(await series('platform_requests_total', { ...roles, outcome: 'ok' })).toBe(before.ok + 1);
    expect(await series('platform_requests_total', { ...member, outcome: 'client_error' })).toBe(before.client + 1);
  });

  it('a 429 counts as a rate_limited request and in platform_rate_limits_total with its scope; the retry that follows counts ok', async () => {
    const { guildId, alice, role, platform } = seeded();
    const put = { route: '/guilds/:id/members/:id/roles/:id', method: 'PUT' };
    const before = {
      limited: await series('platform_requests_total', { ...put, outcome: 'rate_limited' }),
      ok: await series('platform_requests_total', { ...put, outcome: 'ok' }),
      scope: await series('platform_rate_limits_total', { ...put, scope: 'user' }),
    };
    fake.fail({ method: 'PUT', path: `/guilds/${guildId}/members/${alice}/roles/${role}`, answer: rateLimited(1) });
    expect(await platform.changeRole(guildId, alice, role, 'add', null)).toBe(true);
    expect(await series('platform_requests_total', { ...put, outcome: 'rate_limited' })).toBe(before.limited + 1);
    expect(await series('platform_requests_total', { ...put, outcome: 'ok' })).toBe(before.ok + 1);
    expect(await series('platform_rate_limits_total', { ...put, scope: 'user' })).toBe(before.scope + 1);
  });

  it('a request that gets no answer counts as no_answer', async () => {
    const closed = await startFakeDiscord();
    await closed.close();
    const platform = createDiscordPlatform({ token: fake.token, apiUrl: closed.apiUrl, clock, logger, metrics: platformMetrics });
    const labels = { route: '/guilds/:id/channels', method: 'GET', outcome: 'no_answer' };
    const before = await series('platform_requests_total', labels);
    await expect(platform.listChannels(snowflake())).rejects.toThrow();
    expect(await series('platform_requests_total', labels)).toBe(before + 1);
  });
});
