import { Writable } from 'node:stream';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/core/clock.js';
import { PlatformRefusedError, PlatformUnavailableError } from '../../src/core/platform.js';
import { createBanLatch, type BlockReason } from '../../src/platform/discord/banLatch.js';
import { createDiscordPlatform, type DiscordPlatformOptions } from '../../src/platform/discord/discordPlatform.js';
import { discordMemberList } from '../../src/platform/discord/discordMemberList.js';
import { createDiscordRest } from '../../src/platform/discord/discordRest.js';
import {
  BOT_INVITE_PERMISSIONS,
  addFakeInvite,
  addGuild,
  cloudflareBan,
  globallyRateLimited,
  rateLimited,
  startFakeDiscord,
  type FakeDiscord,
} from '../../process/infra/fakeDiscord/index.js';
import { snowflake } from '../harness/fixtures.js';

// The ban latch and the refusal guard of the Discord adapter, against the fake over real sockets with an injected
// clock: after a ban-like 429 no request leaves until it has passed; a request Discord would refuse is not sent.

const NOW = new Date('2026-06-01T12:00:00.000Z');
let fake: FakeDiscord;
beforeAll(async () => {
  fake = await startFakeDiscord();
});
afterAll(() => fake.close());

function setup(options: Partial<DiscordPlatformOptions> & { botRole?: bigint } = {}) {
  const guildId = snowflake();
  const alice = snowflake();
  const role = snowflake();
  const botRole = snowflake();
  addGuild(fake.state, {
    id: guildId,
    name: 'Guards',
    ownerId: snowflake(),
    roles: [
      { id: botRole, name: 'Community Bot', position: 2, managed: true, permissions: String(options.botRole ?? BigInt(BOT_INVITE_PERMISSIONS)) },
      { id: role, name: 'Member', position: 1 },
    ],
    channels: [],
    members: [
      { id: alice, username: 'alice' },
      { id: fake.state.bot.id, username: 'Community Bot', bot: true, roles: [botRole] },
    ],
  });
  const lines: Array<{ msg: string; reason?: string }> = [];
  const logger = pino({ level: 'info' }, new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(JSON.parse(chunk.toString())), done()) }));
  const clock = fixedClock(NOW);
  const blocks: BlockReason[] = [];
  const invalid: number[] = [];
  const latch = createBanLatch({ clock, logger, metrics: { blocked: (r) => blocks.push(r), invalidRequest: (s) => invalid.push(s) } });
  const { botRole: _, ...adapterOptions } = options;
  const platform = createDiscordPlatform({ token: fake.token, apiUrl: fake.apiUrl, clock, logger, latch, ...adapterOptions });
  const from = fake.requests.length;
  const requests = () => fake.requests.slice(from).map((r) => `${r.method} ${r.path} ${r.status}`);
  return { guildId, alice, role, platform, clock, latch, lines, blocks, invalid, requests };
}

describe('the ban latch', () => {
  it('stops every request after a Cloudflare 429 (no bucket headers) until retry-after passes, said once, then lets them through', async () => {
    const t = setup();
    fake.fail({ path: `/guilds/${t.guildId}/roles`, answer: cloudflareBan(3600) });
    const first = await t.platform.listRoles(t.guildId).catch((err: unknown) => err);
    expect(first).toBeInstanceOf(PlatformUnavailableError);
    // Retry-After for the API's 503: the hour, plus the library's 50 ms offset rounded up.
    expect((first as PlatformUnavailableError).retryAfterSeconds).toBeGreaterThanOrEqual(3600);
    expect((first as PlatformUnavailableError).retryAfterSeconds).toBeLessThanOrEqual(3601);
    expect(t.latch.state()).toEqual({ blocked: true, blockedUntil: new Date(NOW.getTime() + 3_600_000).toISOString(), reason: 'cloudflare', setBy: 'this process' });

    // Any request of the process, on any route and through any client sharing the latch, fails at once.
    t.clock.advance(3_599_000);
    await expect(t.platform.getMember(t.guildId, t.alice)).rejects.toThrow(PlatformUnavailableError);
    await expect(t.platform.changeRole(t.guildId, t.alice, t.role, 'add', null)).rejects.toThrow(PlatformUnavailableError);
    const members = discordMemberList({ rest: createDiscordRest({ token: fake.token, apiUrl: fake.apiUrl, latch: t.latch }) });
    await expect(members(t.guildId)).rejects.toThrow(PlatformUnavailableError);
    expect(t.requests()).toEqual([`GET /guilds/${t.guildId}/roles 429`]);
    expect(t.blocks).toEqual(['cloudflare']);
    expect(t.invalid).toEqual([429]);
    expect(t.lines.filter((l) => l.msg.startsWith('Discord answered a ban-like 429'))).toHaveLength(1);

    t.clock.advance(1_000);
    expect((await t.platform.listRoles(t.guildId)).length).toBeGreaterThan(0);
    expect(t.requests()).toEqual([`GET /guilds/${t.guildId}/roles 429`, `GET /guilds/${t.guildId}/roles 200`]);
    expect(t.latch.state()).toEqual({ blocked: false, blockedUntil: null, reason: null, setBy: null });
    expect(t.lines.filter((l) => l.msg.startsWith('Discord requests resume'))).toHaveLength(1);
  });

  // (The pass-through after a global 429 is the Cloudflare case's: the library keeps its own global wait on the real clock.)
  it.each([
    ['a global 429', globallyRateLimited(30), 'global'],
    ['a route 429 whose retry-after is over a minute', rateLimited(120), 'long-retry-after'],
  ] as const)('stops on %s', async (_, answer, reason) => {
    const t = setup();
    fake.fail({ path: `/guilds/${t.guildId}/roles`, answer });
    await expect(t.platform.listRoles(t.guildId)).rejects.toThrow(PlatformUnavailableError);
    expect(t.latch.state()).toMatchObject({ blocked: true, reason });
    await expect(t.platform.getMember(t.guildId, t.alice)).rejects.toThrow(PlatformUnavailableError);
    expect(t.requests()).toEqual([`GET /guilds/${t.guildId}/roles 429`]);
    expect(t.blocks).toEqual([reason]);
  });

  it('does not stop on a short route 429, nor count a shared-scope one as invalid', async () => {
    const t = setup();
    fake.fail({ path: `/guilds/${t.guildId}/roles`, answer: { ...rateLimited(0.2), headers: { ...rateLimited(0.2).headers, 'X-RateLimit-Scope': 'shared' } } });
    const before = fake.invalidRequests();
    await t.platform.listRoles(t.guildId);
    expect(t.latch.state().blocked).toBe(false);
    expect(t.requests()).toEqual([`GET /guilds/${t.guildId}/roles 429`, `GET /guilds/${t.guildId}/roles 200`]);
    expect(t.invalid).toEqual([]);
    expect(fake.invalidRequests()).toBe(before);
  });
});

describe('requests Discord would refuse are not sent', () => {
  it('a 403 (50013) is remembered for the same request and not repeated within its window, then asked again', async () => {
    const t = setup({ botRole: BigInt(BOT_INVITE_PERMISSIONS) & ~PermissionFlagsBits.KickMembers, refusalMemoryMs: 600_000 });
    const before = fake.invalidRequests();
    await expect(t.platform.kick(t.guildId, t.alice, null)).rejects.toThrow(PlatformRefusedError);
    t.clock.advance(599_000);
    const again = await t.platform.kick(t.guildId, t.alice, null).catch((err: unknown) => err);
    expect(again).toMatchObject({ code: 'BOT_MISSING_PERMISSIONS' });
    expect(t.requests()).toEqual([`DELETE /guilds/${t.guildId}/members/${t.alice} 403`]);
    expect(fake.invalidRequests() - before).toBe(1);

    t.clock.advance(1_000);
    await expect(t.platform.kick(t.guildId, t.alice, null)).rejects.toThrow(PlatformRefusedError);
    expect(t.requests()).toHaveLength(2);
  });

  it("a server's remembered refusals are forgotten when the bot's permissions there change (its roles), and asked again", async () => {
    // What the bot process recorded says Kick Members is held; Discord, which knows better, refuses.
    let held = BigInt(BOT_INVITE_PERMISSIONS);
    const t = setup({ botRole: BigInt(BOT_INVITE_PERMISSIONS) & ~PermissionFlagsBits.KickMembers, botPermissions: async () => held });
    await expect(t.platform.kick(t.guildId, t.alice, null)).rejects.toThrow(PlatformRefusedError);
    t.clock.advance(5_000);
    await expect(t.platform.kick(t.guildId, t.alice, null)).rejects.toMatchObject({ message: expect.stringContaining('remembered') });
    expect(t.requests()).toHaveLength(1);

    // The bot is given a role: once its permissions are read again (5 s), the server's refusals are void.
    held |= PermissionFlagsBits.ManageNicknames;
    await expect(t.platform.kick(t.guildId, t.alice, null)).rejects.toMatchObject({ message: expect.stringContaining('remembered') });
    t.clock.advance(5_000);
    await expect(t.platform.kick(t.guildId, t.alice, null)).rejects.toThrow(PlatformRefusedError);
    expect(t.requests()).toEqual([`DELETE /guilds/${t.guildId}/members/${t.alice} 403`, `DELETE /guilds/${t.guildId}/members/${t.alice} 403`]);
  });

  it('a permission the bot is known to lack refuses at once, without a request; unknown permissions let Discord decide', async () => {
    const known = setup({ botRole: BigInt(BOT_INVITE_PERMISSIONS) & ~PermissionFlagsBits.ManageGuild });
    const lacking = createDiscordPlatform({ token: fake.token, apiUrl: fake.apiUrl, clock: known.clock, logger: pino({ level: 'silent' }), botPermissions: async () => 0n });
    await expect(lacking.listInvites(known.guildId)).rejects.toMatchObject({ code: 'BOT_MISSING_PERMISSIONS' });
    await expect(lacking.ban(known.guildId, known.alice, null, 0)).rejects.toMatchObject({ code: 'BOT_MISSING_PERMISSIONS' });
    expect(known.requests()).toEqual([]);

    // Unknown to the adapter: Discord (the fake) answers, and its 403 is what fails the call.
    await expect(known.platform.listInvites(known.guildId)).rejects.toMatchObject({ code: 'BOT_MISSING_PERMISSIONS' });
    expect(known.requests()).toEqual([`GET /guilds/${known.guildId}/invites 403`]);
  });

  it('in a server the bot was removed from, nothing is asked: the server reads as unknown and every effect is refused', async () => {
    const t = setup();
    const left = createDiscordPlatform({ token: fake.token, apiUrl: fake.apiUrl, clock: t.clock, logger: pino({ level: 'silent' }), botPermissions: async () => null });
    expect(await left.getGuild(t.guildId)).toBeUndefined();
    await expect(left.listRoles(t.guildId)).rejects.toMatchObject({ code: 'BOT_MISSING_PERMISSIONS' });
    await expect(left.getMember(t.guildId, t.alice)).rejects.toMatchObject({ code: 'BOT_MISSING_PERMISSIONS' });
    await expect(left.changeRole(t.guildId, t.alice, t.role, 'add', null)).rejects.toMatchObject({ code: 'BOT_MISSING_PERMISSIONS' });
    expect(t.requests()).toEqual([]);
  });

  it('invites listed without their counts (View Audit Log alone) are refused as unreadable, never passed on without uses', async () => {
    const t = setup({ botRole: (BigInt(BOT_INVITE_PERMISSIONS) & ~PermissionFlagsBits.ManageGuild) | PermissionFlagsBits.ViewAuditLog });
    addFakeInvite(fake.state, { guildId: t.guildId, channelId: snowflake(), inviterId: t.alice, uses: 3 });
    await expect(t.platform.listInvites(t.guildId)).rejects.toMatchObject({ code: 'BOT_MISSING_PERMISSIONS' });
    expect(t.requests()).toEqual([`GET /guilds/${t.guildId}/invites 200`]);
  });
});

describe('the fake is as strict as Discord', () => {
  it('answers 50001 outside the server, 50013 without the permission or below the target, invites without metadata under View Audit Log, and counts each invalid answer', async () => {
    const t = setup({ botRole: PermissionFlagsBits.ViewAuditLog });
    addFakeInvite(fake.state, { guildId: t.guildId, channelId: snowflake(), inviterId: t.alice, uses: 3, maxUses: 5 });
    const call = (method: string, path: string) =>
      fetch(`${fake.apiUrl}/v10${path}`, { method, headers: { Authorization: `Bot ${fake.token}` } }).then(async (r) => ({ status: r.status, body: await r.json().catch(() => null) }));
    const before = fake.invalidRequests();

    const invites = await call('GET', `/guilds/${t.guildId}/invites`);
    expect(invites.status).toBe(200);
    expect(invites.body[0]).not.toHaveProperty('uses');
    expect(invites.body[0]).not.toHaveProperty('max_uses');
    expect(await call('DELETE', `/guilds/${t.guildId}/members/${t.alice}`)).toEqual({ status: 403, body: { message: 'Missing Permissions', code: 50013 } });

    const elsewhere = setup();
    fake.state.guilds.get(elsewhere.guildId)!.members.delete(fake.state.bot.id);
    expect(await call('GET', `/guilds/${elsewhere.guildId}`)).toEqual({ status: 403, body: { message: 'Missing Access', code: 50001 } });
    fake.fail({ path: `/guilds/${elsewhere.guildId}/roles`, answer: cloudflareBan(60) });
    const banned = await fetch(`${fake.apiUrl}/v10/guilds/${elsewhere.guildId}/roles`, { headers: { Authorization: `Bot ${fake.token}` } });
    expect(banned.status).toBe(429);
    expect(banned.headers.get('retry-after')).toBe('60');
    expect(banned.headers.get('x-ratelimit-bucket')).toBeNull();
    expect(banned.headers.get('content-type')).toBe('text/html');
    expect(fake.invalidRequests() - before).toBe(3);
  });
});
