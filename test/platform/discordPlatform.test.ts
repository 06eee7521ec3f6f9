import { Writable } from 'node:stream';
import { ApplicationFailure } from '@temporalio/common';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformFailure } from '../../activities/platformFailures.js';
import { fixedClock } from '../../src/core/clock.js';
import { PlatformConfigurationError, PlatformRefusedError, PlatformUnavailableError } from '../../src/core/platform.js';
import { createDiscordPlatform, nonceOf, type DiscordPlatformOptions } from '../../src/platform/discord/discordPlatform.js';
import {
  BOT_INVITE_PERMISSIONS,
  addGuild,
  cannotMessageUser,
  missingPermissions,
  rateLimited,
  serverError,
  startFakeDiscord,
  unknownMember,
  type FakeDiscord,
} from '../../process/infra/fakeDiscord/index.js';
import { snowflake } from '../harness/fixtures.js';

const NOW = new Date('2026-06-01T12:00:00.000Z');
let fake: FakeDiscord;
beforeAll(async () => {
  fake = await startFakeDiscord();
});
afterAll(() => fake.close());

function setup(options: Partial<DiscordPlatformOptions> = {}) {
  const guildId = snowflake();
  const alice = snowflake();
  const general = snowflake();
  const role = snowflake();
  const botRole = snowflake();
  addGuild(fake.state, {
    id: guildId,
    name: 'Adapter',
    ownerId: snowflake(),
    roles: [
      { id: botRole, name: 'Community Bot', position: 2, managed: true, permissions: BOT_INVITE_PERMISSIONS },
      { id: role, name: 'Member', position: 1 },
    ],
    channels: [{ id: general, type: 0, name: 'general' }],
    members: [
      { id: alice, username: 'alice' },
      { id: fake.state.bot.id, username: 'Community Bot', bot: true, roles: [botRole] },
    ],
  });
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(chunk.toString()), done()) }));
  const clock = fixedClock(NOW);
  const platform = createDiscordPlatform({ token: fake.token, apiUrl: fake.apiUrl, clock, logger, ...options });
  const from = fake.requests.length;
  const requests = () => fake.requests.slice(from);
  return { guildId, alice, general, role, platform, clock, lines, requests };
}

describe('Discord adapter: requests', () => {
  it('a ban is one PUT with the reason in X-Audit-Log-Reason and delete_message_seconds, after a read of the ban', async () => {
    const { platform, guildId, alice, requests } = setup();
    expect(await platform.ban(guildId, alice, 'Case #12 by key "mod key": spam links', 86_400)).toBe(true);
    expect(requests().map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      `GET /guilds/${guildId}/bans/${alice} 404`,
      `PUT /guilds/${guildId}/bans/${alice} 204`,
    ]);
    const put = requests()[1]!;
    expect(put.headers.authorization).toBe(`Bot ${fake.token}`);
    expect(decodeURIComponent(put.headers['x-audit-log-reason']!)).toBe('Case #12 by key "mod key": spam links');
    expect(put.body).toEqual({ delete_message_seconds: 86_400 });
  });

  it.each([
    ['changeRole add', (p: Setup) => p.platform.changeRole(p.guildId, p.alice, p.role, 'add', null)],
    ['timeout', (p: Setup) => p.platform.timeout(p.guildId, p.alice, new Date(NOW.getTime() + 60_000), null)],
    ['kick', (p: Setup) => p.platform.kick(p.guildId, p.alice, null)],
    ['unban', (p: Setup) => p.platform.unban(p.guildId, p.alice, null)],
    ['invite', (p: Setup) => p.platform.createInvite(p.guildId, p.general, 1, `invite/${p.guildId}`)],
    ['ticket channel delete', (p: Setup) => p.platform.closeTicketChannel(p.guildId, p.general, { thread: false }, `close/${p.general}`)],
  ])('%s carries an X-Audit-Log-Reason even without a reason given', async (_, act) => {
    const p = setup();
    await act(p);
    const writes = p.requests().filter((r) => r.method !== 'GET');
    expect(writes.length).toBe(1);
    expect(writes[0]!.headers['x-audit-log-reason']).toMatch(/\S/);
  });

  it('a message carries a nonce derived from its idempotency key with enforce_nonce; a retry answers the first message', async () => {
    const { platform, guildId, general, requests } = setup();
    const first = await platform.postMessage(guildId, general, 'hello', 'level-up/1');
    expect(await platform.postMessage(guildId, general, 'hello', 'level-up/1')).toBe(first);
    expect(requests().map((r) => r.body)).toEqual([
      { content: 'hello', nonce: nonceOf('level-up/1'), enforce_nonce: true, allowed_mentions: { parse: [], users: [], roles: [] } },
      { content: 'hello', nonce: nonceOf('level-up/1'), enforce_nonce: true, allowed_mentions: { parse: [], users: [], roles: [] } },
    ]);
    expect(nonceOf('level-up/1')).toHaveLength(25);
    expect(nonceOf('level-up/2')).not.toBe(nonceOf('level-up/1'));
  });

  it('buttons travel as one action row of components; an edit with none takes them away, an edit without the option leaves them', async () => {
    const { platform, guildId, general, requests } = setup();
    const id = await platform.postMessage(guildId, general, 'Giveaway', 'giveaway/1', { buttons: [{ id: 'giveaway:enter:1', label: 'Enter' }] });
    await platform.editMessage(guildId, general, id, 'Ended', { buttons: [] });
    await platform.editMessage(guildId, general, id, 'Ended again');
    expect(requests().map((r) => r.body?.components)).toEqual([[{ type: 1, components: [{ type: 2, style: 1, custom_id: 'giveaway:enter:1', label: 'Enter' }] }], [], undefined]);
  });

  it('a timeout past 28 days is refused before any request', async () => {
    const { platform, guildId, alice, requests } = setup();
    const err = await platform.timeout(guildId, alice, new Date(NOW.getTime() + 28 * 86_400_000 + 1000), 'x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformRefusedError);
    expect(err).toMatchObject({ code: 'INVALID_REQUEST' });
    expect(requests()).toEqual([]);
  });
});

type Setup = ReturnType<typeof setup>;

describe('Discord adapter: refusals and outages', () => {
  it('403 50013 Missing Permissions is a refusal with BOT_MISSING_PERMISSIONS, tried once; the member is unchanged', async () => {
    const { platform, guildId, alice, role, requests } = setup();
    fake.fail({ method: 'PUT', path: `/guilds/${guildId}/members/${alice}/roles/${role}`, answer: missingPermissions() });
    const err = await platform.changeRole(guildId, alice, role, 'add', 'Level 5').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformRefusedError);
    expect(err).toMatchObject({ code: 'BOT_MISSING_PERMISSIONS', message: expect.stringContaining('Missing Permissions') });
    expect(requests().filter((r) => r.method === 'PUT')).toHaveLength(1);
    expect(fake.state.guilds.get(guildId)!.members.get(alice)!.roles).toEqual([]);
  });

  it('10007 Unknown Member while taking a role or kicking: the member left, a no-op', async () => {
    const { platform, guildId, alice, role } = setup();
    await platform.changeRole(guildId, alice, role, 'add', null);
    fake.fail({ method: 'DELETE', path: `/guilds/${guildId}/members/${alice}/roles/${role}`, answer: unknownMember() });
    expect(await platform.changeRole(guildId, alice, role, 'remove', null)).toBe(false);
    fake.fail({ method: 'DELETE', path: `/guilds/${guildId}/members/${alice}`, answer: unknownMember() });
    expect(await platform.kick(guildId, alice, null)).toBe(false);
  });

  it('50007 Cannot send messages to this user: the DM is failed, nothing thrown', async () => {
    const { platform, guildId, alice } = setup();
    fake.fail({ method: 'POST', path: /^\/channels\/\d+\/messages$/, answer: cannotMessageUser() });
    expect(await platform.sendDirectMessage(guildId, alice, 'hi', `dm/${guildId}`)).toBe('failed');
  });

  it.each([500, 502, 503])('%i is an outage for the caller to retry, tried once (no retries without backoff in the library)', async (status) => {
    const { platform, guildId, general, requests } = setup();
    fake.fail({ method: 'POST', path: `/channels/${general}/messages`, answer: serverError(status) });
    await expect(platform.postMessage(guildId, general, 'x', `k/${status}`)).rejects.toBeInstanceOf(PlatformUnavailableError);
    expect(requests()).toHaveLength(1);
  });

  it('a short 429 is waited out by the library: the effect happens once', async () => {
    const { platform, guildId, alice, role, requests } = setup();
    fake.fail({ method: 'PUT', path: `/guilds/${guildId}/members/${alice}/roles/${role}`, answer: rateLimited(1) });
    expect(await platform.changeRole(guildId, alice, role, 'add', null)).toBe(true);
    expect(requests().filter((r) => r.method === 'PUT').map((r) => r.status)).toEqual([429, 204]);
    expect(fake.state.guilds.get(guildId)!.members.get(alice)!.roles).toEqual([role]);
  });

  it.each([
    ['route', rateLimited(60)],
    ['global', rateLimited(60, { global: true })],
  ])('a %s 429 longer than the adapter waits fails the call at once as an outage (Temporal backs off)', async (_, answer) => {
    const { platform, guildId, general, requests } = setup({ maxRateLimitWaitMs: 5_000 });
    fake.fail({ method: 'POST', path: `/channels/${general}/messages`, answer });
    const err = await platform.postMessage(guildId, general, 'x', `rl/${guildId}`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformUnavailableError);
    expect((err as Error).message).toMatch(/rate limit/);
    expect(requests()).toHaveLength(1);
    expect([...fake.state.messages.values()].filter((m) => m.channel_id === general)).toEqual([]);
  });

  it('a slow answer past the call deadline is an outage', async () => {
    const { platform, guildId } = setup({ callDeadlineMs: 200 });
    fake.fail({ path: `/guilds/${guildId}/channels`, delayMs: 1_000 });
    await expect(platform.listChannels(guildId)).rejects.toBeInstanceOf(PlatformUnavailableError);
  });

  it('an API nobody listens on is an outage', async () => {
    const closed = await startFakeDiscord();
    await closed.close();
    const platform = createDiscordPlatform({ token: fake.token, apiUrl: closed.apiUrl, clock: fixedClock(NOW), logger: pino({ level: 'silent' }) });
    await expect(platform.listRoles(snowflake())).rejects.toBeInstanceOf(PlatformUnavailableError);
  });

  it('401 is a configuration error: logged once without the token, and no later call reaches Discord', async () => {
    const { guildId, lines } = setup();
    const from = fake.requests.length;
    const logger = pino({ level: 'info' }, new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(chunk.toString()), done()) }));
    const platform = createDiscordPlatform({ token: 'd3Jvbmc.dG9rZW4.bm90LXRoZS1ib3Q', apiUrl: fake.apiUrl, clock: fixedClock(NOW), logger });
    for (let i = 0; i < 3; i++) await expect(platform.listRoles(guildId)).rejects.toBeInstanceOf(PlatformConfigurationError);
    expect(fake.requests.length - from).toBe(1);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 60, msg: expect.stringContaining('DISCORD_TOKEN') });
    expect(lines[0]).not.toContain('d3Jvbmc.dG9rZW4.bm90LXRoZS1ib3Q');
  });
});

describe('Discord adapter: caching', () => {
  it('a member is read once per 5 minutes; a change made through the adapter is seen at once', async () => {
    const { platform, guildId, alice, role, clock, requests } = setup();
    const memberReads = () => requests().filter((r) => r.method === 'GET' && r.path === `/guilds/${guildId}/members/${alice}`).length;
    await platform.getMember(guildId, alice);
    await platform.getMember(guildId, alice);
    expect(memberReads()).toBe(1);
    clock.advance(299_000);
    await platform.getMember(guildId, alice);
    expect(memberReads()).toBe(1);
    clock.advance(2_000);
    await platform.getMember(guildId, alice);
    expect(memberReads()).toBe(2);
    await platform.changeRole(guildId, alice, role, 'add', null);
    expect(await platform.getMember(guildId, alice)).toMatchObject({ roleIds: [role] });
  });

  it('guild, roles and channels are read once per 30 seconds', async () => {
    const { platform, guildId, clock, requests } = setup();
    const reads = () => requests().filter((r) => r.method === 'GET' && r.path !== '/users/@me').length;
    await Promise.all([platform.getGuild(guildId), platform.listRoles(guildId), platform.listChannels(guildId)]);
    expect(reads()).toBe(4);
    await Promise.all([platform.getGuild(guildId), platform.listRoles(guildId), platform.listChannels(guildId)]);
    expect(reads()).toBe(4);
    clock.advance(30_000);
    await platform.listRoles(guildId);
    expect(reads()).toBe(5);
  });
});

describe('platform failures in activities', () => {
  it('a refusal becomes a non-retryable failure typed by its code; an outage stays retryable', () => {
    const refused = platformFailure(new PlatformRefusedError('BOT_MISSING_PERMISSIONS', 'Missing Permissions'));
    expect(refused).toBeInstanceOf(ApplicationFailure);
    expect(refused).toMatchObject({ type: 'BOT_MISSING_PERMISSIONS', nonRetryable: true, message: 'Missing Permissions' });
    expect(platformFailure(new PlatformConfigurationError('bad token'))).toMatchObject({ type: 'PLATFORM_UNAUTHORIZED', nonRetryable: true });
    const outage = new PlatformUnavailableError();
    expect(platformFailure(outage)).toBe(outage);
  });
});
