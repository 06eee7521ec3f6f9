import { afterAll, describe, expect, it } from 'vitest';
import { addLevelReward, saveLevelSettings } from '../../db/levels/members.js';
import { setTicketLogChannel } from '../../db/tickets/closes.js';
import { enterGiveaway } from '../../src/giveaways/enterGiveaway.js';
import { missingPermissions, startFakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { fileTestAppeal } from '../harness/appeals.js';
import { createDiscordGuild, discordPlatformOn, type DiscordGuild } from '../harness/discordGuild.js';
import { eventually } from '../harness/eventually.js';
import { bearer, snowflake } from '../harness/fixtures.js';
import { ticketRequests } from '../harness/tickets.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';

// Level-up roles, appeal decisions and ticket closes through the REST API with PLATFORM=discord, against the fake.

const fake = await startFakeDiscord();
afterAll(() => fake.close());
const platform = discordPlatformOn(fake);
const { db, app } = useWorkflowTestBed({ worker: { platform }, app: { deps: { platform } } });
const { open } = ticketRequests(db, app, new Date());

const messagesIn = (channelId: string | undefined) => [...fake.state.messages.values()].filter((m) => m.channel_id === channelId).map((m) => m.content);
/** The level-up as Discord shows it: the member pinged above a card with the staff's text. */
const levelUpsIn = (channelId: string) =>
  [...fake.state.messages.values()].filter((m) => m.channel_id === channelId).map((m) => ({ content: m.content, text: m.embeds[0]?.description, pinged: m.mentions.map((u) => u.id) }));
const writes = (path: string) => fake.requests.filter((r) => r.path === path && r.method !== 'GET');
const reasonOf = (r: { headers: Record<string, string> }) => decodeURIComponent(r.headers['x-audit-log-reason'] ?? '');

describe('levels on Discord', () => {
  it('a level-up gives the reward role with one PUT and posts the announcement once', async () => {
    const g = await createDiscordGuild(db(), fake);
    const userId = g.addMember();
    await addLevelReward(db(), g.id, { level: 2, roleId: g.roles.reward });
    await saveLevelSettings(db(), g.id, { announceChannelId: g.channels.general, announceTemplate: '{user} reached level {level}', removePreviousRewards: false });
    const res = await app.http('POST', `/guilds/${g.id}/levels/members/${userId}/xp-changes`, { headers: bearer(g.key), body: { type: 'set', amount: 2, unit: 'levels' } });
    expect(res.status).toBe(202);
    const done = await eventually(
      () => app.http('GET', `/guilds/${g.id}/levels/xp-changes/${res.body.changeId}`, { headers: bearer(g.key) }),
      (r) => r.body?.status === 'done' || r.body?.status === 'failed',
    );
    expect(done.body).toMatchObject({ status: 'done', result: { level: 2 } });
    const put = writes(`/guilds/${g.id}/members/${userId}/roles/${g.roles.reward}`);
    expect(put.map((r) => r.method)).toEqual(['PUT']);
    expect(reasonOf(put[0]!)).toMatch(/\S/);
    expect(fake.state.guilds.get(g.id)!.members.get(userId)!.roles).toEqual([g.roles.member, g.roles.reward]);
    await eventually(async () => messagesIn(g.channels.general), (m) => m.length > 0);
    expect(levelUpsIn(g.channels.general)).toEqual([{ content: `<@${userId}>`, text: `<@${userId}> reached level 2`, pinged: [userId] }]);
  });

  it('a reward role Discord refuses (50013): tried once, the XP stands (done) and the announcement still goes out', async () => {
    const g = await createDiscordGuild(db(), fake);
    const userId = g.addMember();
    await addLevelReward(db(), g.id, { level: 2, roleId: g.roles.reward });
    await saveLevelSettings(db(), g.id, { announceChannelId: g.channels.general, announceTemplate: '{user} reached level {level}', removePreviousRewards: false });
    fake.fail({ method: 'PUT', path: `/guilds/${g.id}/members/${userId}/roles/${g.roles.reward}`, answer: missingPermissions() });
    const res = await app.http('POST', `/guilds/${g.id}/levels/members/${userId}/xp-changes`, { headers: bearer(g.key), body: { type: 'set', amount: 2, unit: 'levels' } });
    const done = await eventually(
      () => app.http('GET', `/guilds/${g.id}/levels/xp-changes/${res.body.changeId}`, { headers: bearer(g.key) }),
      (r) => r.body?.status === 'done' || r.body?.status === 'failed',
    );
    expect(done.body).toMatchObject({ status: 'done', result: { level: 2 }, error: null });
    expect(writes(`/guilds/${g.id}/members/${userId}/roles/${g.roles.reward}`).map((r) => r.status)).toEqual([403]);
    expect(fake.state.guilds.get(g.id)!.members.get(userId)!.roles).toEqual([g.roles.member]);
    expect(levelUpsIn(g.channels.general)).toEqual([{ content: `<@${userId}>`, text: `<@${userId}> reached level 2`, pinged: [userId] }]);
  });
});

describe('giveaways on Discord', () => {
  it('started and ended: one post (nonce), one edit naming the winners, one announcement, a DM per winner', async () => {
    const g = await createDiscordGuild(db(), fake);
    const members = [g.addMember(), g.addMember(), g.addMember()];
    const res = await app.http('POST', `/guilds/${g.id}/giveaways`, {
      headers: bearer(g.key),
      body: { channelId: g.channels.general, prize: 'Nitro', durationSeconds: 3600, winners: 2 },
    });
    expect(res.status).toBe(201);
    const id = res.body.id as number;
    const giveaway = () => app.http('GET', `/guilds/${g.id}/giveaways/${id}`, { headers: bearer(g.key) });
    await eventually(giveaway, (r) => r.body?.status === 'active');
    for (const userId of members) {
      const member = await platform.getMember(g.id, userId);
      await db()
        .transaction()
        .execute((trx) => enterGiveaway(trx, { guildId: g.id, giveawayId: id, userId, member, at: new Date(), actor: { type: 'system' } }));
    }
    const ended = await app.http('POST', `/guilds/${g.id}/giveaways/${id}/end`, { headers: bearer(g.key) });
    expect(ended.status).toBe(200);
    const winners = ended.body.draw.winnerIds as string[];
    expect(winners).toHaveLength(2);
    await eventually(giveaway, (r) => r.body.queuedActions.every((a: { status: string }) => a.status !== 'queued') && r.body.queuedActions.length === 5);

    const posts = fake.requests.filter((r) => r.method === 'POST' && r.path === `/channels/${g.channels.general}/messages`);
    expect(posts).toHaveLength(2);
    expect(posts.every((p) => p.body?.enforce_nonce === true && typeof p.body.nonce === 'string')).toBe(true);
    const [message, announcement] = [...fake.state.messages.values()].filter((m) => m.channel_id === g.channels.general);
    const card = message!.embeds[0]!.description!;
    expect(card).toContain('Winners: ');
    for (const w of winners) expect(card).toContain(`<@${w}>`);
    expect(message!.components).toEqual([]);
    expect(announcement!.content).toContain('Congratulations');
    expect(announcement!.mentions.map((u) => u.id).sort()).toEqual([...winners].sort());
    expect(fake.requests.filter((r) => r.method === 'PATCH' && r.path.startsWith(`/channels/${g.channels.general}/messages/`))).toHaveLength(1);
    for (const w of winners) expect(messagesIn(fake.state.dmChannels.get(w))).toHaveLength(1);
  });

  it('a lost answer to the giveaway post (Discord made it, the worker never heard): the retry carries the same nonce and gets that message; one post, its id recorded', async () => {
    const g = await createDiscordGuild(db(), fake);
    fake.fail({ method: 'POST', path: `/channels/${g.channels.general}/messages`, dropAnswer: true });
    const res = await app.http('POST', `/guilds/${g.id}/giveaways`, {
      headers: bearer(g.key),
      body: { channelId: g.channels.general, prize: 'Lost answer', durationSeconds: 3600, winners: 1 },
    });
    expect(res.status).toBe(201);
    const active = await eventually(
      () => app.http('GET', `/guilds/${g.id}/giveaways/${res.body.id as number}`, { headers: bearer(g.key) }),
      (r) => r.body?.status === 'active' && r.body.messageUrl !== null,
    );
    const posts = fake.requests.filter((r) => r.method === 'POST' && r.path === `/channels/${g.channels.general}/messages`);
    expect(posts.map((p) => p.status)).toEqual([200, 200]);
    expect(new Set(posts.map((p) => p.body?.nonce)).size).toBe(1);
    const messages = [...fake.state.messages.values()].filter((m) => m.channel_id === g.channels.general);
    expect(messages).toHaveLength(1);
    expect(active.body.messageUrl).toMatch(new RegExp(`/${messages[0]!.id}$`));
  });
});

describe('appeals on Discord', () => {
  async function bannedAppellant(g: DiscordGuild, options: { dmsClosed?: boolean } = {}) {
    const userId = snowflake();
    const guild = fake.state.guilds.get(g.id)!;
    const user = { id: userId, username: 'appellant', discriminator: '0', global_name: null, avatar: null };
    fake.state.users.set(userId, user);
    guild.bans.set(userId, { user, reason: 'spam' });
    if (options.dmsClosed) fake.state.closedDms.add(userId);
    const { number } = await fileTestAppeal(db(), g.id, { userId, userTag: 'appellant', banReason: 'spam', at: new Date() });
    return { userId, number };
  }

  async function decided(g: DiscordGuild, number: number) {
    const res = await app.http('POST', `/guilds/${g.id}/appeals/${number}/approve`, { headers: bearer(g.key), body: { reason: 'Second chance.' } });
    expect(res.status).toBe(202);
    return (await eventually(() => app.http('GET', `/guilds/${g.id}/appeals/${number}`, { headers: bearer(g.key) }), (r) => r.body?.applying === false)).body;
  }

  it('approve: one unban with the appeal in the audit log reason, a single-use invite, and the DM carrying it', async () => {
    const g = await createDiscordGuild(db(), fake);
    const { userId, number } = await bannedAppellant(g);
    expect(await decided(g, number)).toMatchObject({ status: 'approved', applying: false, failedAction: null });
    const unbans = writes(`/guilds/${g.id}/bans/${userId}`);
    expect(unbans.map((r) => [r.method, r.status])).toEqual([['DELETE', 204]]);
    expect(reasonOf(unbans[0]!)).toBe(`Ban appeal #${number} approved`);
    expect(fake.state.guilds.get(g.id)!.bans.has(userId)).toBe(false);
    const invites = [...fake.state.invites.values()].filter((i) => i.guildId === g.id);
    expect(invites).toEqual([expect.objectContaining({ channelId: g.channels.general, maxUses: 1 })]);
    const dm = [...fake.state.messages.values()].filter((m) => m.channel_id === fake.state.dmChannels.get(userId));
    expect(dm).toHaveLength(1);
    expect(dm[0]!.embeds[0]).toMatchObject({ title: 'Ban appeal approved', description: expect.stringContaining(`https://discord.gg/${invites[0]!.code}`) });
  });

  it('approve with the DM refused (50007): unbanned and invited, the DM recorded as failed', async () => {
    const g = await createDiscordGuild(db(), fake);
    const { userId, number } = await bannedAppellant(g, { dmsClosed: true });
    expect(await decided(g, number)).toMatchObject({ status: 'approved', applying: false, failedAction: { type: 'dm', error: 'DM_FAILED' } });
    expect(fake.state.guilds.get(g.id)!.bans.has(userId)).toBe(false);
    expect(messagesIn(fake.state.dmChannels.get(userId))).toEqual([]);
  });
});

describe('tickets on Discord', () => {
  it.each([
    ['channel', false, 'DELETE'],
    ['thread', true, 'PATCH'],
  ])('a %s ticket closed through the API: log line, DM, and the %s closed with one write', async (_, isThread, method) => {
    const g = await createDiscordGuild(db(), fake);
    await setTicketLogChannel(db(), g.id, g.channels.log);
    const opener = g.addMember();
    const channelId = snowflake();
    fake.state.guilds.get(g.id)!.channels.set(channelId, {
      id: channelId,
      type: isThread ? 11 : 0,
      name: 'ticket-1',
      guild_id: g.id,
      parent_id: isThread ? g.channels.general : null,
      position: 3,
    } as never);
    const { ticketNo } = await open({ id: g.id, ownerId: g.ownerId, botUserId: g.botUserId }, { userId: opener, channelId, isThread, subject: 'Refund' });
    const res = await app.http('POST', `/guilds/${g.id}/tickets/${ticketNo}/close`, { headers: bearer(g.key), body: { reason: 'Refund sent.' } });
    expect(res.status).toBe(202);
    await eventually(
      () => app.http('GET', `/guilds/${g.id}/tickets/${ticketNo}`, { headers: bearer(g.key) }),
      (r) => r.body?.status === 'closed' && r.body?.closeRequest === null,
    );
    expect(messagesIn(g.channels.log)).toEqual([`Ticket #${ticketNo} of <@${opener}> closed through the API (Refund sent.). Transcript saved.`]);
    expect(messagesIn(fake.state.dmChannels.get(opener))).toHaveLength(1);
    const closes = writes(`/channels/${channelId}`);
    expect(closes.map((r) => r.method)).toEqual([method]);
    if (isThread) {
      expect(closes[0]!.body).toEqual({ archived: true, locked: true });
      expect(fake.state.guilds.get(g.id)!.channels.get(channelId)).toMatchObject({ thread_metadata: { archived: true, locked: true } });
    } else {
      expect(fake.state.guilds.get(g.id)!.channels.has(channelId)).toBe(false);
    }
  });
});
