import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { saveGiveawaySettings } from '../../../db/giveaways/settings.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { createTestKey, snowflake } from '../../harness/fixtures.js';
import { NO_REQUIREMENTS } from '../../harness/giveawayRequirements.js';
import { giveawayRequests } from './giveawayBed.js';

const NOW = new Date('2026-11-24T12:00:00.000Z');
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000).toISOString();

// Starts go to a task queue nobody polls: the HTTP contract is under test here (test/workflows/giveaway*.test.ts run them).
const { db, app, clock } = useApiTestBed({ now: NOW, temporal: true });
const { setup, start, get, refused } = giveawayRequests(db, app, clock);

describe('POST /giveaways', () => {
  it('minimal body: 201 scheduled now for durationSeconds, defaults from the server and the key, audit row, seed committed', async () => {
    const g = await setup();
    const res = await start(g, { prize: 'Nitro', durationSeconds: 3600 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: 1,
      status: 'scheduled',
      prize: 'Nitro',
      description: null,
      channelId: g.channelId,
      messageUrl: null,
      winnersCount: 1,
      startsAt: NOW.toISOString(),
      endsAt: at(3600),
      endedAt: null,
      entrants: 0,
      entries: 0,
      winnerIds: [],
      hostId: g.ownerId,
      requirements: NO_REQUIREMENTS,
      pingRoleId: null,
      dmWinners: true,
      createdAt: NOW.toISOString(),
    });
    const detail = await get(g, 1);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ ...res.body, entryCounts: { entrants: 0, entries: 0, bonusEntries: 0 }, draws: [], queuedActions: [] });
    const row = await db().selectFrom('giveaways').selectAll().where('guild_id', '=', g.id).executeTakeFirstOrThrow();
    expect(row.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(detail.body.seedHash).toBe(createHash('sha256').update(Buffer.from(row.seed, 'hex')).digest('hex'));
    expect(row.embed).toEqual({ color: '#D94CFF', endedColor: '#4E5058', emoji: '🎉', imageUrl: null, thumbnailUrl: null });
    const audit = await db().selectFrom('audit_log').selectAll().where('guild_id', '=', g.id).where('action', '=', 'giveaways.start').execute();
    expect(audit).toEqual([expect.objectContaining({ actor_type: 'api_key', api_key_id: g.keyId, target_id: '1' })]);
    expect((await start(g, {})).body.id).toBe(2);
  });

  it("hosts a key without a creator's giveaway as the server's owner, asked of the platform before the write", async () => {
    const g = await setup();
    const operatorKey = await createTestKey(db(), g, { scopes: ['giveaways:write'], createdBy: null });
    const res = await start({ ...g, key: operatorKey.key }, {});
    expect(res.status).toBe(201);
    expect(res.body.hostId).toBe(g.ownerId);
    const hostId = snowflake();
    const named = await start({ ...g, key: operatorKey.key }, { hostId });
    expect(named.body.hostId).toBe(hostId);
  });

  it('exact bounds are accepted: 60 s and 5,184,000 s, startsAt now', async () => {
    const g = await setup();
    expect((await start(g, { durationSeconds: 60, startsAt: NOW.toISOString() })).status).toBe(201);
    expect((await start(g, { durationSeconds: undefined, endsAt: at(5_184_000) })).status).toBe(201);
  });

  it('every field: an announcement channel, startsAt later, endsAt, requirements, embed, ping role, DM setting and host', async () => {
    const g = await setup();
    const host = snowflake();
    const requirements = {
      roleIds: [g.roles.member, g.roles.vip],
      roleMode: 'all',
      blockedRoleIds: [g.roles.muted],
      minAccountAgeDays: 30,
      minMemberDays: 7,
      minLevel: 5,
      entryCost: 250,
      bonusRoles: [{ roleId: g.roles.booster, entries: 3 }],
    };
    const embed = { color: '#112233', endedColor: '#445566', emoji: '🎁', imageUrl: 'https://img.example/a.png', thumbnailUrl: null };
    const res = await start(g, {
      channelId: g.announcementId,
      prize: 'A signed poster',
      description: 'Thanks for 10k members!',
      winners: 50,
      startsAt: at(600),
      endsAt: at(600 + 86_400),
      durationSeconds: undefined,
      requirements,
      embed,
      pingRoleId: g.roles.member,
      dmWinners: false,
      hostId: host,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      channelId: g.announcementId,
      description: 'Thanks for 10k members!',
      winnersCount: 50,
      startsAt: at(600),
      endsAt: at(600 + 86_400),
      requirements,
      pingRoleId: g.roles.member,
      dmWinners: false,
      hostId: host,
    });
    const row = await db().selectFrom('giveaways').select('embed').where('guild_id', '=', g.id).executeTakeFirstOrThrow();
    expect(row.embed).toEqual(embed);
  });

  it("look and DM setting default to the server's Giveaways settings; embed fields given override them one by one", async () => {
    const g = await setup();
    await saveGiveawaySettings(db(), g.id, {
      look: { color: '#000001', endedColor: '#000002', emoji: '🥳', imageUrl: 'https://img.example/look.png', thumbnailUrl: 'https://img.example/t.png' },
      dmWinners: false,
    });
    const res = await start(g, { embed: { color: '#ABCDEF', thumbnailUrl: null } });
    expect(res.body.dmWinners).toBe(false);
    const row = await db().selectFrom('giveaways').select('embed').where('guild_id', '=', g.id).executeTakeFirstOrThrow();
    expect(row.embed).toEqual({ color: '#ABCDEF', endedColor: '#000002', emoji: '🥳', imageUrl: 'https://img.example/look.png', thumbnailUrl: null });
  });

  it('Idempotency-Key: a replay returns the same 201 and creates nothing; another body with the key answers 422', async () => {
    const g = await setup();
    const first = await start(g, { prize: 'Once' }, { 'Idempotency-Key': 'gw-1' });
    const again = await start(g, { prize: 'Once' }, { 'Idempotency-Key': 'gw-1' });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    await refused(g.id, async () => {
      const other = await start(g, { prize: 'Other' }, { 'Idempotency-Key': 'gw-1' });
      expect(other.status).toBe(422);
      expect(other.body.error).toBe('IDEMPOTENCY_KEY_REUSED');
    });
    expect(await db().selectFrom('giveaways').select('id').where('guild_id', '=', g.id).execute()).toHaveLength(1);
  });

  const long = (n: number) => 'x'.repeat(n);
  const role = () => '1' + '2'.repeat(18);
  it.each<[string, Record<string, unknown>, string]>([
    ['no channelId', { channelId: undefined }, 'channelId'],
    ['a malformed channelId', { channelId: '12' }, 'channelId'],
    ['an empty prize', { prize: '' }, 'prize'],
    ['a prize of 201 characters', { prize: long(201) }, 'prize'],
    ['a description of 1001 characters', { description: long(1001) }, 'description'],
    ['0 winners', { winners: 0 }, 'winners'],
    ['51 winners', { winners: 51 }, 'winners'],
    ['1.5 winners', { winners: 1.5 }, 'winners'],
    ['durationSeconds 59', { durationSeconds: 59 }, 'durationSeconds'],
    ['durationSeconds 5,184,001', { durationSeconds: 5_184_001 }, 'durationSeconds'],
    ['startsAt not a timestamp', { startsAt: 'tomorrow' }, 'startsAt'],
    ['21 required roles', { requirements: { roleIds: Array.from({ length: 21 }, role) } }, 'requirements.roleIds'],
    ['roleMode some', { requirements: { roleMode: 'some' } }, 'requirements.roleMode'],
    ['21 blocked roles', { requirements: { blockedRoleIds: Array.from({ length: 21 }, role) } }, 'requirements.blockedRoleIds'],
    ['minAccountAgeDays 3651', { requirements: { minAccountAgeDays: 3651 } }, 'requirements.minAccountAgeDays'],
    ['minMemberDays -1', { requirements: { minMemberDays: -1 } }, 'requirements.minMemberDays'],
    ['minLevel 1001', { requirements: { minLevel: 1001 } }, 'requirements.minLevel'],
    ['entryCost 1,000,000,001', { requirements: { entryCost: 1_000_000_001 } }, 'requirements.entryCost'],
    ['a bonus role of 1 entry', { requirements: { bonusRoles: [{ roleId: role(), entries: 1 }] } }, 'requirements.bonusRoles.0.entries'],
    ['a bonus role of 11 entries', { requirements: { bonusRoles: [{ roleId: role(), entries: 11 }] } }, 'requirements.bonusRoles.0.entries'],
    ['11 bonus roles', { requirements: { bonusRoles: Array.from({ length: 11 }, () => ({ roleId: role(), entries: 2 })) } }, 'requirements.bonusRoles'],
    ['an unknown requirement', { requirements: { karma: 3 } }, 'requirements'],
    ['an embed colour that is no colour', { embed: { color: 'pink' } }, 'embed.color'],
    ['an emoji of 65 characters', { embed: { emoji: long(65) } }, 'embed.emoji'],
    ['an image link of 501 characters', { embed: { imageUrl: `https://img.example/${long(481)}` } }, 'embed.imageUrl'],
    ['a malformed ping role', { pingRoleId: 'everyone' }, 'pingRoleId'],
    ['dmWinners "yes"', { dmWinners: 'yes' }, 'dmWinners'],
    ['an unknown field', { colour: 'red' }, ''],
  ])('400 INVALID_REQUEST for %s, nothing written', async (_case, patch, path) => {
    const g = await setup();
    await refused(g.id, async () => {
      const res = await start(g, patch);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('INVALID_REQUEST');
      expect(res.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ location: 'body', path })]));
    });
  });

  it.each<[string, Record<string, unknown>]>([
    ['neither endsAt nor durationSeconds', { durationSeconds: undefined }],
    ['both endsAt and durationSeconds', { endsAt: at(3600) }],
  ])('%s: 400 INVALID_REQUEST with the one body issue, nothing written (a shape rule, not a schedule)', async (_case, patch) => {
    const g = await setup();
    await refused(g.id, async () => {
      const res = await start(g, patch);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'INVALID_REQUEST',
        message: expect.any(String),
        issues: [{ location: 'body', path: '', message: 'give exactly one of endsAt and durationSeconds' }],
      });
    });
  });

  it('the OpenAPI document says so: one of endsAt and durationSeconds required, 400 INVALID_REQUEST and 422 INVALID_SCHEDULE listed', async () => {
    const doc = (await app.http('GET', '/openapi.json')).body;
    expect(doc.components.schemas.GiveawayStartRequest.oneOf).toEqual([{ required: ['endsAt'] }, { required: ['durationSeconds'] }]);
    const responses = doc.paths['/guilds/{guildId}/giveaways'].post.responses;
    expect(responses['400'].description).toContain('INVALID_REQUEST');
    expect(responses['422'].description).toContain('INVALID_SCHEDULE');
    expect(doc.paths['/guilds/{guildId}/giveaways'].post.description).toContain('neither or both is 400 INVALID_REQUEST');
  });

  // Schema-valid bodies the server refuses: 422, never 400 (a request valid against the document is not a bad request).
  it.each<[string, Record<string, unknown>, string, string]>([
    ['an unknown channel', { channelId: '1999999999999999999' }, 'INVALID_CHANNEL', 'channelId must be a text or announcement channel of this server.'],
    ['startsAt a millisecond in the past', { startsAt: new Date(NOW.getTime() - 1).toISOString() }, 'INVALID_SCHEDULE', 'startsAt must not be in the past.'],
    ['endsAt 59 s after the start', { durationSeconds: undefined, endsAt: at(59) }, 'INVALID_SCHEDULE', 'endsAt must be 60 to 5184000 seconds after the start.'],
    ['endsAt 5,184,001 s after the start', { durationSeconds: undefined, endsAt: at(5_184_001) }, 'INVALID_SCHEDULE', 'endsAt must be 60 to 5184000 seconds after the start.'],
    ['startsAt more than 365 days ahead', { startsAt: at(365 * 86_400 + 1) }, 'INVALID_SCHEDULE', 'startsAt must be within 365 days from now.'],
    ['endsAt before a later startsAt', { startsAt: at(7200), durationSeconds: undefined, endsAt: at(3600) }, 'INVALID_SCHEDULE', 'endsAt must be 60 to 5184000 seconds after the start.'],
  ])('422 for %s, nothing written', async (_case, patch, code, message) => {
    const g = await setup();
    await refused(g.id, async () => {
      const res = await start(g, patch);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: code, message });
    });
  });

  it('422 INVALID_CHANNEL for a voice channel, 409 FEATURE_DISABLED with Giveaways off, 403 INSUFFICIENT_SCOPE without giveaways:write', async () => {
    const g = await setup();
    await refused(g.id, async () => {
      const res = await start(g, { channelId: g.voiceId });
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('INVALID_CHANNEL');
    });
    const off = await setup({ features: ['bank'] });
    await refused(off.id, async () => {
      const res = await start(off, {});
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('FEATURE_DISABLED');
    });
    const readOnly = await setup({ scopes: ['giveaways:read'] });
    await refused(readOnly.id, async () => {
      const res = await start(readOnly, {});
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: 'INSUFFICIENT_SCOPE', required: 'giveaways:write' });
    });
  });
});
