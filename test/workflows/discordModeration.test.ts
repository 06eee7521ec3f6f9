import { afterAll, describe, expect, it } from 'vitest';
import { saveModerationSettings } from '../../db/moderation/settings.js';
import { missingPermissions, rateLimited, startFakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { createDiscordGuild, discordPlatformOn, type DiscordGuild } from '../harness/discordGuild.js';
import { eventually } from '../harness/eventually.js';
import { bearer } from '../harness/fixtures.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';

// Moderation through the REST API with PLATFORM=discord: the api and the worker use the Discord adapter, and
// Discord is the fake on a loopback port, so every effect is a real HTTP request the test can read.

const fake = await startFakeDiscord();
afterAll(() => fake.close());
const platform = discordPlatformOn(fake);
const { db, app } = useWorkflowTestBed({ worker: { platform }, app: { deps: { platform } } });

const act = (g: DiscordGuild, action: string, userId: string, body?: unknown) =>
  app.http('POST', `/guilds/${g.id}/moderation/users/${userId}/${action}`, { headers: bearer(g.key), body });

async function finished(g: DiscordGuild, actionId: string) {
  const res = await eventually(
    () => app.http('GET', `/guilds/${g.id}/moderation/actions/${actionId}`, { headers: bearer(g.key) }),
    (r) => r.body?.status === 'done' || r.body?.status === 'failed',
  );
  return res.body;
}

const requestsTo = (path: string, method?: string) => fake.requests.filter((r) => r.path === path && (!method || r.method === method));
const reasonOf = (r: { headers: Record<string, string> }) => decodeURIComponent(r.headers['x-audit-log-reason'] ?? '');

describe('moderation on Discord', () => {
  it('a ban is one PUT with delete_message_seconds and an audit log reason naming the API key', async () => {
    const g = await createDiscordGuild(db(), fake);
    const target = g.addMember();
    const res = await act(g, 'ban', target, { reason: 'scam links', deleteMessageSeconds: 86_400 });
    expect(res.status).toBe(202);
    expect(await finished(g, res.body.actionId)).toMatchObject({ status: 'done', caseNumber: 1, error: null });
    const puts = requestsTo(`/guilds/${g.id}/bans/${target}`, 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0]!.body).toEqual({ delete_message_seconds: 86_400 });
    expect(reasonOf(puts[0]!)).toBe('scam links (via API key "mod key")');
    expect(fake.state.guilds.get(g.id)!.bans.get(target)).toMatchObject({ reason: 'scam links (via API key "mod key")' });
    expect(fake.state.guilds.get(g.id)!.members.has(target)).toBe(false);
  });

  it("a member above the bot in Discord's role order: HIERARCHY_HIGHER from Discord's positions, and nothing is written to Discord", async () => {
    const g = await createDiscordGuild(db(), fake);
    const target = g.addMember();
    fake.state.guilds.get(g.id)!.members.get(target)!.roles.push(g.roles.admin);
    const before = fake.requests.length;
    const res = await act(g, 'kick', target, { reason: 'x' });
    expect(await finished(g, res.body.actionId)).toMatchObject({ status: 'failed', error: 'HIERARCHY_HIGHER' });
    expect(fake.requests.slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
    expect(fake.state.guilds.get(g.id)!.members.has(target)).toBe(true);
  });

  it('a timeout over 28 days is refused by the API before anything reaches Discord', async () => {
    const g = await createDiscordGuild(db(), fake);
    const target = g.addMember();
    const before = fake.requests.length;
    const res = await act(g, 'timeout', target, { reason: 'too long', durationSeconds: 28 * 86_400 + 1 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'INVALID_REQUEST', issues: [expect.objectContaining({ location: 'body', path: 'durationSeconds' })] });
    expect(fake.requests.length).toBe(before);
    expect(await db().selectFrom('moderation_actions').select('action_id').where('guild_id', '=', g.id).execute()).toEqual([]);
  });

  it('a 429 on the first call: done after Retry-After, with one effect', async () => {
    const g = await createDiscordGuild(db(), fake);
    const target = g.addMember();
    fake.fail({ method: 'PUT', path: `/guilds/${g.id}/bans/${target}`, answer: rateLimited(1) });
    const res = await act(g, 'ban', target, { reason: 'flood' });
    expect(await finished(g, res.body.actionId)).toMatchObject({ status: 'done', caseNumber: 1 });
    expect(requestsTo(`/guilds/${g.id}/bans/${target}`, 'PUT').map((r) => r.status)).toEqual([429, 204]);
    expect(await db().selectFrom('moderation_cases').select('number').where('guild_id', '=', g.id).execute()).toEqual([{ number: 1 }]);
  });

  it('403 Missing Permissions: the action fails with BOT_MISSING_PERMISSIONS, tried once, no case recorded', async () => {
    const g = await createDiscordGuild(db(), fake);
    const target = g.addMember();
    fake.fail({ method: 'DELETE', path: `/guilds/${g.id}/members/${target}`, answer: missingPermissions() });
    const res = await act(g, 'kick', target, { reason: 'rude' });
    expect(await finished(g, res.body.actionId)).toMatchObject({ status: 'failed', caseNumber: null, error: 'BOT_MISSING_PERMISSIONS' });
    expect(requestsTo(`/guilds/${g.id}/members/${target}`, 'DELETE')).toHaveLength(1);
    expect(fake.state.guilds.get(g.id)!.members.has(target)).toBe(true);
    expect(await db().selectFrom('moderation_cases').select('number').where('guild_id', '=', g.id).execute()).toEqual([]);
  });

  it('a warning DM the member refuses (50007): the case says dmStatus failed, and the mod log line is posted once', async () => {
    const g = await createDiscordGuild(db(), fake);
    await saveModerationSettings(db(), g.id, { dmMembers: true, logChannelId: g.channels.log, warningExpirySeconds: null });
    const target = g.addMember({ dmsClosed: true });
    const res = await act(g, 'warn', target, { reason: 'spam' });
    expect(await finished(g, res.body.actionId)).toMatchObject({ status: 'done', caseNumber: 1 });
    const detail = await app.http('GET', `/guilds/${g.id}/moderation/cases/1`, { headers: bearer(g.key) });
    expect(detail.body).toMatchObject({ action: 'warn', userId: target, dmStatus: 'failed' });
    await eventually(
      async () => [...fake.state.messages.values()].filter((m) => m.channel_id === g.channels.log),
      (posted) => posted.length > 0,
    );
    const posted = [...fake.state.messages.values()].filter((m) => m.channel_id === g.channels.log);
    // The case as a card that names the member and the moderator without pinging anyone.
    expect(posted.map((m) => ({ content: m.content, title: m.embeds[0]?.title, fields: m.embeds[0]?.fields, pinged: m.mentions }))).toEqual([
      {
        content: '',
        title: 'Case #1 · warn',
        fields: [
          { name: 'Member', value: expect.stringMatching(new RegExp(`^<@${target}>`)), inline: true },
          { name: 'Moderator', value: `<@${g.moderatorId}>`, inline: true },
          { name: 'Reason', value: 'spam', inline: false },
        ],
        pinged: [],
      },
    ]);
  });

  it('a lost answer to the mod log post (the worker never hears back): retried with the same nonce, one message', async () => {
    const g = await createDiscordGuild(db(), fake);
    await saveModerationSettings(db(), g.id, { dmMembers: false, logChannelId: g.channels.log, warningExpirySeconds: null });
    const target = g.addMember();
    fake.fail({ method: 'POST', path: `/channels/${g.channels.log}/messages`, dropAnswer: true });
    const res = await act(g, 'warn', target, { reason: 'lost reply' });
    expect(await finished(g, res.body.actionId)).toMatchObject({ status: 'done' });
    const posts = await eventually(
      async () => requestsTo(`/channels/${g.channels.log}/messages`, 'POST'),
      (r) => r.length >= 2,
    );
    expect(new Set(posts.map((p) => p.body?.nonce)).size).toBe(1);
    expect([...fake.state.messages.values()].filter((m) => m.channel_id === g.channels.log)).toHaveLength(1);
  });
});
