import { describe, expect, it } from 'vitest';
import { setPlatformReachable, upsertPlatformChannels, upsertPlatformRoles } from '../../../db/platform/local.js';
import { fixedClock } from '../../../src/core/clock.js';
import { createLocalPlatform } from '../../../src/platform/localPlatform.js';
import { createMemberCache } from '../../../src/core/memberCache.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { addTestMember, bearer, createTestGuild, createTestKey, snowflake } from '../../harness/fixtures.js';
import { deletePlatformMember } from '../../../db/platform/local.js';

const { database, app } = useApiTestBed();

describe('Server endpoints', () => {
  it('returns the guild with its features and an approximate member count', async () => {
    const guild = await createTestGuild(database.db, { features: ['bank', 'levels'], name: 'Dragons' });
    const { key } = await createTestKey(database.db, guild, { scopes: ['guild:read'] });
    await addTestMember(database.db, guild);
    const res = await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: guild.id,
      name: 'Dragons',
      icon: null,
      iconUrl: null,
      memberCount: 3,
      locale: 'en',
      enabledFeatures: ['bank', 'levels'],
    });
  });

  it('answers memberCount null and the last known name while the platform is unreachable', async () => {
    const guild = await createTestGuild(database.db, { name: 'Offline' });
    const { key } = await createTestKey(database.db, guild, { scopes: ['guild:read'] });
    await setPlatformReachable(database.db, guild.id, false);
    const res = await app.http('GET', `/guilds/${guild.id}`, { headers: bearer(key) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Offline', memberCount: null });
  });

  it('lists roles highest first without the everyone role', async () => {
    const guild = await createTestGuild(database.db);
    const { key } = await createTestKey(database.db, guild, { scopes: ['guild:read'] });
    const [admin, mod, member] = [snowflake(), snowflake(), snowflake()];
    await upsertPlatformRoles(database.db, guild.id, [
      { roleId: member, name: 'Member', position: 1 },
      { roleId: admin, name: 'Admin', position: 3, color: 0xff0000, hoist: true },
      { roleId: mod, name: 'Moderator', position: 2, mentionable: true },
    ]);
    const res = await app.http('GET', `/guilds/${guild.id}/roles`, { headers: bearer(key) });
    expect(res.status).toBe(200);
    expect(res.body.items.map((r: { name: string }) => r.name)).toEqual(['Admin', 'Moderator', 'Member']);
    expect(res.body.items[0]).toEqual({
      id: admin,
      name: 'Admin',
      color: '#FF0000',
      position: 3,
      managed: false,
      hoist: true,
      mentionable: false,
    });
  });

  it('lists channels in sidebar order without threads', async () => {
    const guild = await createTestGuild(database.db);
    const { key } = await createTestKey(database.db, guild, { scopes: ['guild:read'] });
    const id = () => snowflake();
    const [info, voiceCat, rules, welcome, lounge, general, thread, loose] = [id(), id(), id(), id(), id(), id(), id(), id()];
    await upsertPlatformChannels(database.db, guild.id, [
      { channelId: lounge, name: 'Lounge', type: 'voice', parentId: voiceCat, position: 0 },
      { channelId: general, name: 'general', type: 'text', parentId: voiceCat, position: 5 },
      { channelId: voiceCat, name: 'HANGOUT', type: 'category', position: 1 },
      { channelId: info, name: 'INFO', type: 'category', position: 0 },
      { channelId: welcome, name: 'welcome', type: 'text', parentId: info, position: 1 },
      { channelId: rules, name: 'rules', type: 'announcement', parentId: info, position: 0 },
      { channelId: thread, name: 'a thread', type: 'thread', parentId: welcome, position: 0 },
      { channelId: loose, name: 'no-category', type: 'text', position: 9 },
    ]);
    const res = await app.http('GET', `/guilds/${guild.id}/channels`, { headers: bearer(key) });
    expect(res.status).toBe(200);
    expect(res.body.items.map((c: { name: string }) => c.name)).toEqual([
      'no-category',
      'INFO',
      'rules',
      'welcome',
      'HANGOUT',
      'general',
      'Lounge',
    ]);
    expect(res.body.items[2]).toEqual({ id: rules, name: 'rules', type: 'announcement', parentId: info, position: 0 });
  });

  it('returns a member and 404 MEMBER_NOT_FOUND for a stranger', async () => {
    const guild = await createTestGuild(database.db);
    const { key } = await createTestKey(database.db, guild, { scopes: ['guild:read'] });
    const userId = await addTestMember(database.db, guild, { username: 'alice' });
    const found = await app.http('GET', `/guilds/${guild.id}/members/${userId}`, { headers: bearer(key) });
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ userId, username: 'alice', displayName: 'alice', bot: false, roles: [] });
    expect(typeof found.body.joinedAt).toBe('string');
    const missing = await app.http('GET', `/guilds/${guild.id}/members/${snowflake()}`, { headers: bearer(key) });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'MEMBER_NOT_FOUND', message: expect.any(String) });
  });
});

describe('member cache', () => {
  it('serves a member up to the TTL and refreshes after it', async () => {
    const guild = await createTestGuild(database.db);
    const userId = await addTestMember(database.db, guild);
    const clock = fixedClock(new Date('2026-11-22T12:00:00Z'));
    const cache = createMemberCache(createLocalPlatform(database.db), clock, 300);
    expect(await cache.getMember(guild.id, userId)).toBeDefined();
    await deletePlatformMember(database.db, guild.id, userId);
    clock.advance(299_000);
    expect(await cache.getMember(guild.id, userId)).toBeDefined();
    clock.advance(2_000);
    expect(await cache.getMember(guild.id, userId)).toBeUndefined();
  });
});
