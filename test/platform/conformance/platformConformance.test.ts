import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDiscord, type FakeDiscord } from '../../../process/infra/fakeDiscord/index.js';
import { searchMembers } from '../../../src/console/memberSearch.js';
import { useTestDatabase } from '../../harness/database.js';
import { snowflake } from '../../harness/fixtures.js';
import { discordSubject, localSubject, newWorld, NOW, type Subject, type World } from './subjects.js';

// The same behaviour from both adapters of the Platform port, so the local stand-in and Discord cannot drift.

const database = useTestDatabase();
let fake: FakeDiscord;
beforeAll(async () => {
  fake = await startFakeDiscord();
});
afterAll(() => fake.close());

const SUBJECTS: Array<[string, () => Subject, () => string]> = [
  ['local', () => localSubject(() => database.db), () => snowflake()],
  ['discord (fake)', () => discordSubject(() => fake), () => fake.state.bot.id],
];

describe.each(SUBJECTS)('Platform port: %s adapter', (_, makeSubject, botId) => {
  async function seeded(): Promise<{ s: Subject; w: World; alice: string; bob: string; general: string; thread: string }> {
    const s = makeSubject();
    const w = newWorld(botId());
    await s.seed(w);
    return { s, w, alice: w.members[1]!.userId, bob: w.members[2]!.userId, general: w.channels[1]!.id, thread: w.channels[2]!.id };
  }

  it('reads the server, its roles, channels (threads included) and members; undefined for strangers and unknown servers', async () => {
    const { s, w, alice } = await seeded();
    expect(await s.platform.getGuild(w.guildId)).toMatchObject({ id: w.guildId, name: 'Conformance', ownerId: w.ownerId, botUserId: w.botUserId, approximateMemberCount: 3 });
    expect(await s.platform.getGuild(snowflake())).toBeUndefined();
    const roles = await s.platform.listRoles(w.guildId);
    expect(roles.map((r) => [r.id, r.name, r.position, r.permissions]).sort()).toEqual(w.roles.map((r) => [r.id, r.name, r.position, r.permissions]).sort());
    const channels = await s.platform.listChannels(w.guildId);
    expect(channels.map((c) => [c.id, c.name, c.type, c.parentId]).sort()).toEqual(w.channels.map((c) => [c.id, c.name, c.type, c.parentId]).sort());
    expect(await s.platform.getMember(w.guildId, alice)).toMatchObject({ userId: alice, username: 'alice', bot: false, roleIds: [], timedOutUntil: null });
    expect(await s.platform.getMember(w.guildId, snowflake())).toBeUndefined();
  });

  it("searches members by the start of their name in either case through the console's use case, refusing an empty or over-long query", async () => {
    const { s, w, alice, bob } = await seeded();
    expect(await searchMembers(s.platform, w.guildId, '  AL ')).toEqual({ kind: 'found', query: 'AL', members: [{ userId: alice, name: 'alice', username: 'alice' }] });
    expect(await searchMembers(s.platform, w.guildId, 'bo')).toMatchObject({ kind: 'found', members: expect.arrayContaining([{ userId: bob, name: 'bob', username: 'bob' }]) });
    expect(await searchMembers(s.platform, w.guildId, 'zz')).toEqual({ kind: 'found', query: 'zz', members: [] });
    expect(await searchMembers(s.platform, w.guildId, '   ')).toEqual({ kind: 'invalid', query: '', message: "Type the start of a member's name: 1 to 32 characters." });
    expect(await searchMembers(s.platform, w.guildId, 'a'.repeat(33))).toEqual({ kind: 'invalid', query: 'a'.repeat(33), message: 'Names are at most 32 characters: type the start of one.' });
    expect(await searchMembers(s.platform, w.guildId, undefined)).toEqual({ kind: 'none' });
  });

  it('gives and takes a role once: a repeat is a no-op, and the member shows the change at once', async () => {
    const { s, w, alice } = await seeded();
    const role = w.roles[2]!.id;
    expect(await s.platform.getMember(w.guildId, alice)).toMatchObject({ roleIds: [] });
    expect(await s.platform.changeRole(w.guildId, alice, role, 'add', 'Level 5')).toBe(true);
    expect(await s.platform.changeRole(w.guildId, alice, role, 'add', 'Level 5')).toBe(false);
    expect(await s.platform.getMember(w.guildId, alice)).toMatchObject({ roleIds: [role] });
    expect(await s.platform.changeRole(w.guildId, alice, role, 'remove', null)).toBe(true);
    expect(await s.platform.changeRole(w.guildId, alice, role, 'remove', null)).toBe(false);
    expect(await s.platform.getMember(w.guildId, alice)).toMatchObject({ roleIds: [] });
  });

  it('a role change for someone who is not a member changes nothing', async () => {
    const { s, w } = await seeded();
    expect(await s.platform.changeRole(w.guildId, snowflake(), w.roles[2]!.id, 'add', null)).toBe(false);
    expect(await s.platform.changeRole(w.guildId, snowflake(), w.roles[2]!.id, 'remove', null)).toBe(false);
  });

  it('posts a message once per idempotency key and edits it', async () => {
    const { s, w, general } = await seeded();
    const first = await s.platform.postMessage(w.guildId, general, 'Giveaway!', `conf/${w.guildId}/1`);
    expect(await s.platform.postMessage(w.guildId, general, 'Giveaway!', `conf/${w.guildId}/1`)).toBe(first);
    const second = await s.platform.postMessage(w.guildId, general, 'Another', `conf/${w.guildId}/2`);
    expect(second).not.toBe(first);
    expect(await s.platform.editMessage(w.guildId, general, first, 'Giveaway ended')).toBe(true);
    expect(await s.platform.editMessage(w.guildId, general, first, 'Giveaway ended')).toBe(true);
    expect((await s.messagesIn(w.guildId, general)).sort()).toEqual(['Another', 'Giveaway ended']);
  });

  it('keeps buttons under a message and a DM; an edit with [] takes them away, one without leaves them; more than 25 are refused and nothing is posted', async () => {
    const { s, w, general } = await seeded();
    const buttons = Array.from({ length: 7 }, (_, i) => ({ id: `panel:${i}`, label: `Form ${i}` }));
    const id = await s.platform.postMessage(w.guildId, general, 'Panel', `conf/${w.guildId}/buttons`, { buttons });
    expect(await s.buttonsIn(w.guildId, { channelId: general })).toEqual([buttons]);
    expect(await s.platform.editMessage(w.guildId, general, id, 'Panel, edited')).toBe(true);
    expect(await s.buttonsIn(w.guildId, { channelId: general })).toEqual([buttons]);
    expect(await s.platform.editMessage(w.guildId, general, id, 'Panel closed', { buttons: [] })).toBe(true);
    expect(await s.buttonsIn(w.guildId, { channelId: general })).toEqual([[]]);
    const tooMany = Array.from({ length: 26 }, (_, i) => ({ id: `b${i}`, label: 'B' }));
    await expect(s.platform.postMessage(w.guildId, general, 'Too many', `conf/${w.guildId}/too-many`, { buttons: tooMany })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    expect(await s.messagesIn(w.guildId, general)).toEqual(['Panel closed']);

    const member = w.members.find((m) => !m.bot && !m.dmsClosed)!.userId;
    const appeal = [{ id: `appeal:open:${w.guildId}`, label: 'Appeal' }];
    expect(await s.platform.sendDirectMessage(w.guildId, member, 'You were banned.', `conf/${w.guildId}/dm-button`, { buttons: appeal })).toBe('sent');
    expect(await s.buttonsIn(w.guildId, { dm: member })).toEqual([appeal]);
    // One options object: a card, who it pings and the button together, with no text (Discord refuses an empty message).
    const card = { embeds: [{ title: 'Banned', description: 'From Conformance.' }], mentions: { userIds: [], roleIds: [] }, buttons: appeal };
    expect(await s.platform.sendDirectMessage(w.guildId, member, '', `conf/${w.guildId}/dm-card-button`, card)).toBe('sent');
    expect(await s.buttonsIn(w.guildId, { dm: member })).toEqual([appeal, appeal]);
  });

  it('editing a message that does not exist answers false', async () => {
    const { s, w, general } = await seeded();
    expect(await s.platform.editMessage(w.guildId, general, snowflake(), 'x')).toBe(false);
  });

  it('bans once (a second ban is a no-op), reads the ban, and unbans once', async () => {
    const { s, w, alice } = await seeded();
    expect(await s.platform.getBan(w.guildId, alice)).toBeUndefined();
    expect(await s.platform.ban(w.guildId, alice, 'Case #3 by mod key: spam', 3600)).toBe(true);
    expect(await s.platform.ban(w.guildId, alice, 'Case #3 by mod key: spam', 3600)).toBe(false);
    expect(await s.platform.getBan(w.guildId, alice)).toEqual({ reason: 'Case #3 by mod key: spam' });
    expect(await s.platform.getMember(w.guildId, alice)).toBeUndefined();
    expect(await s.platform.unban(w.guildId, alice, 'Appeal approved')).toBe(true);
    expect(await s.platform.unban(w.guildId, alice, 'Appeal approved')).toBe(false);
    expect(await s.platform.getBan(w.guildId, alice)).toBeUndefined();
  });

  it('reads a seeded ban with its reason', async () => {
    const { s, w } = await seeded();
    expect(await s.platform.getBan(w.guildId, w.bans[0]!.userId)).toEqual({ reason: 'spam' });
  });

  it('kicks once; a kick of someone gone is a no-op', async () => {
    const { s, w, alice } = await seeded();
    expect(await s.platform.kick(w.guildId, alice, 'Case #4')).toBe(true);
    expect(await s.platform.getMember(w.guildId, alice)).toBeUndefined();
    expect(await s.platform.kick(w.guildId, alice, 'Case #4')).toBe(false);
  });

  it('times out until a moment, a repeat is a no-op, and lifts it', async () => {
    const { s, w, alice } = await seeded();
    const until = new Date(NOW.getTime() + 3600_000);
    expect(await s.platform.timeout(w.guildId, alice, until, 'Case #5')).toBe(true);
    expect(await s.platform.timeout(w.guildId, alice, until, 'Case #5')).toBe(false);
    expect(await s.platform.getMember(w.guildId, alice)).toMatchObject({ timedOutUntil: until });
    expect(await s.platform.timeout(w.guildId, alice, null, 'Case #6')).toBe(true);
    expect(await s.platform.timeout(w.guildId, alice, null, 'Case #6')).toBe(false);
    expect(await s.platform.getMember(w.guildId, alice)).toMatchObject({ timedOutUntil: null });
    expect(await s.platform.timeout(w.guildId, snowflake(), until, 'Case #7')).toBe(false);
  });

  it('sends a DM once per key; a member with closed DMs gets none and the answer is failed', async () => {
    const { s, w, alice, bob } = await seeded();
    expect(await s.platform.sendDirectMessage(w.guildId, alice, 'Your appeal was approved', `conf-dm/${w.guildId}`)).toBe('sent');
    expect(await s.platform.sendDirectMessage(w.guildId, alice, 'Your appeal was approved', `conf-dm/${w.guildId}`)).toBe('sent');
    expect(await s.directMessagesTo(w.guildId, alice)).toEqual(['Your appeal was approved']);
    expect(await s.platform.sendDirectMessage(w.guildId, bob, 'Hello', `conf-dm/${w.guildId}/bob`)).toBe('failed');
    expect(await s.directMessagesTo(w.guildId, bob)).toEqual([]);
  });

  it('creates one invite per idempotency key', async () => {
    const { s, w, general } = await seeded();
    const url = await s.platform.createInvite(w.guildId, general, 1, `conf-invite/${w.guildId}`);
    expect(url).toMatch(/^https:\/\/\S+\/[\w-]+$/);
    expect(await s.platform.createInvite(w.guildId, general, 1, `conf-invite/${w.guildId}`)).toBe(url);
  });

  it("lists the server's invites with their inviter, channel and use counts", async () => {
    const { s, w, general } = await seeded();
    expect(await s.platform.listInvites(w.guildId)).toEqual([]);
    const url = await s.platform.createInvite(w.guildId, general, 1, `conf-list-invites/${w.guildId}`);
    expect(await s.platform.listInvites(w.guildId)).toEqual([{ code: url.split('/').pop(), inviterId: w.botUserId, channelId: general, uses: 0, maxUses: 1 }]);
  });

  it('creates one ticket channel per idempotency key, under a category or at the top', async () => {
    const { s, w, alice } = await seeded();
    const category = w.channels[0]!.id;
    const before = await s.platform.listChannels(w.guildId);
    const under = await s.platform.createTicketChannel(w.guildId, { name: 'ticket-1', parentId: category, openerId: alice }, `conf-ticket/${w.guildId}/1`);
    const top = await s.platform.createTicketChannel(w.guildId, { name: 'ticket-2', openerId: alice, staffRoleIds: [w.roles[1]!.id] }, `conf-ticket/${w.guildId}/2`);
    expect(await s.platform.createTicketChannel(w.guildId, { name: 'ticket-1', parentId: category, openerId: alice }, `conf-ticket/${w.guildId}/1`)).toBe(under);
    expect(top).not.toBe(under);
    const after = await s.platform.listChannels(w.guildId);
    expect(after.filter((c) => !before.some((b) => b.id === c.id)).map((c) => [c.id, c.name, c.type, c.parentId]).sort()).toEqual(
      [
        [under, 'ticket-1', 'text', category],
        [top, 'ticket-2', 'text', null],
      ].sort(),
    );
  });

  it('closes a ticket thread and a ticket channel once', async () => {
    const { s, w, general, thread } = await seeded();
    expect(await s.platform.closeTicketChannel(w.guildId, thread, { thread: true }, `conf-close/${thread}`)).toBe(true);
    expect(await s.platform.closeTicketChannel(w.guildId, thread, { thread: true }, `conf-close/${thread}`)).toBe(false);
    expect(await s.platform.closeTicketChannel(w.guildId, general, { thread: false }, `conf-close/${general}`)).toBe(true);
    expect(await s.platform.closeTicketChannel(w.guildId, general, { thread: false }, `conf-close/${general}`)).toBe(false);
  });
});
