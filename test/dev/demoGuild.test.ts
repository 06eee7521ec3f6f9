import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../db/schema.js';
import { systemClock } from '../../src/core/clock.js';
import { DEMO_BOT_ID, DEMO_GUILD_ID, DEMO_OWNER_ID, seedDemoGuild } from '../../process/demo/demoGuild.js';
import { FEATURES } from '../../src/core/features.js';
import { createApiKey } from '../../src/keys/keyManagement.js';
import { useTestDatabase } from '../harness/database.js';
import { bearer } from '../harness/fixtures.js';
import { useTestApp } from '../harness/testApp.js';

const database = useTestDatabase();
const app = useTestApp(() => database.db);

/** Every row the seed writes, so a second run that changed anything shows up as a difference. */
async function snapshot(db: Kysely<Database>) {
  return {
    guild: await db.selectFrom('guilds').selectAll().where('id', '=', DEMO_GUILD_ID).execute(),
    platformGuild: await db.selectFrom('platform_guilds').selectAll().where('guild_id', '=', DEMO_GUILD_ID).execute(),
    roles: await db.selectFrom('platform_roles').selectAll().where('guild_id', '=', DEMO_GUILD_ID).orderBy('role_id').execute(),
    channels: await db.selectFrom('platform_channels').selectAll().where('guild_id', '=', DEMO_GUILD_ID).orderBy('channel_id').execute(),
    members: await db.selectFrom('platform_members').selectAll().where('guild_id', '=', DEMO_GUILD_ID).orderBy('user_id').execute(),
    bankSettings: await db.selectFrom('bank_settings').selectAll().where('guild_id', '=', DEMO_GUILD_ID).execute(),
    levelSettings: await db.selectFrom('level_settings').selectAll().where('guild_id', '=', DEMO_GUILD_ID).execute(),
    levelRewards: await db.selectFrom('level_rewards').selectAll().where('guild_id', '=', DEMO_GUILD_ID).execute(),
    moderationSettings: await db.selectFrom('moderation_settings').selectAll().where('guild_id', '=', DEMO_GUILD_ID).execute(),
    escalations: await db.selectFrom('moderation_escalations').selectAll().where('guild_id', '=', DEMO_GUILD_ID).execute(),
    cases: await db.selectFrom('moderation_cases').selectAll().where('guild_id', '=', DEMO_GUILD_ID).orderBy('number').execute(),
    caseEvents: await db.selectFrom('moderation_case_events').selectAll().where('guild_id', '=', DEMO_GUILD_ID).orderBy('id').execute(),
    bans: await db.selectFrom('platform_bans').selectAll().where('guild_id', '=', DEMO_GUILD_ID).orderBy('user_id').execute(),
    appeals: await db.selectFrom('appeals').selectAll().where('guild_id', '=', DEMO_GUILD_ID).orderBy('number').execute(),
    appealMessages: await db.selectFrom('appeal_messages').selectAll().where('guild_id', '=', DEMO_GUILD_ID).orderBy('id').execute(),
    events: await db.selectFrom('events').select(['id', 'type']).where('guild_id', '=', DEMO_GUILD_ID).orderBy('id').execute(),
    auditRows: (await db.selectFrom('audit_log').select('id').execute()).length,
  };
}

describe('demo guild', () => {
  it('is seeded once: a second run changes nothing', async () => {
    expect(await seedDemoGuild(database.db)).toBe(DEMO_GUILD_ID);
    const first = await snapshot(database.db);
    expect(await seedDemoGuild(database.db)).toBe(DEMO_GUILD_ID);
    expect(await snapshot(database.db)).toEqual(first);

    expect(first.guild).toHaveLength(1);
    expect(first.guild[0]).toMatchObject({ plan: 'pro', blocked: false, features: [...FEATURES] });
    expect(first.members.length).toBeGreaterThanOrEqual(45);
    expect(first.members.length).toBeLessThanOrEqual(55);
    const owner = first.members.find((m) => m.user_id === DEMO_OWNER_ID);
    const bot = first.members.find((m) => m.user_id === DEMO_BOT_ID);
    expect(owner).toMatchObject({ bot: false });
    expect(bot).toMatchObject({ bot: true });
    expect(first.members.filter((m) => m.bot)).toHaveLength(1);
  });

  it('has a role hierarchy with Discord permission bits and members holding the roles', async () => {
    await seedDemoGuild(database.db);
    const { roles, members } = await snapshot(database.db);
    const byName = new Map(roles.map((r) => [r.name, r]));
    const order = ['Owner', 'Admin', 'Moderator', 'Helper', 'VIP', 'Member', 'Muted'];
    const positions = order.map((name) => byName.get(name)!.position);
    expect(positions).toEqual([...positions].sort((a, b) => b - a));
    expect(new Set(roles.map((r) => r.position)).size).toBe(roles.length);

    const has = (name: string, bit: bigint) => (BigInt(byName.get(name)!.permissions) & bit) === bit;
    expect(has('Owner', 1n << 3n)).toBe(true);
    expect(has('Admin', 1n << 3n)).toBe(true);
    expect(has('Moderator', (1n << 1n) | (1n << 2n) | (1n << 40n))).toBe(true);
    expect(has('Member', 1n << 3n)).toBe(false);
    const botRole = roles.find((r) => r.managed)!;
    expect(has(botRole.name, 1n << 28n)).toBe(true);

    const holders = (name: string) => members.filter((m) => m.role_ids.includes(byName.get(name)!.role_id));
    expect(holders('Owner').map((m) => m.user_id)).toEqual([DEMO_OWNER_ID]);
    expect(holders(botRole.name).map((m) => m.user_id)).toEqual([DEMO_BOT_ID]);
    for (const name of ['Admin', 'Moderator', 'Helper', 'VIP', 'Muted']) expect(holders(name).length).toBeGreaterThan(0);
    expect(holders('Member').length).toBeGreaterThan(40);
  });

  it('has channels of every kind in categories, and one thread', async () => {
    await seedDemoGuild(database.db);
    const { channels } = await snapshot(database.db);
    const categories = channels.filter((c) => c.type === 'category');
    expect(categories.length).toBeGreaterThanOrEqual(3);
    expect(new Set(channels.map((c) => c.type))).toEqual(new Set(['category', 'text', 'voice', 'announcement', 'forum', 'stage', 'thread']));
    const ids = new Set(channels.map((c) => c.channel_id));
    for (const c of channels.filter((c) => c.type !== 'category')) expect(ids.has(c.parent_id!)).toBe(true);
  });

  it('keeps roles granted to a member while the demo ran', async () => {
    await seedDemoGuild(database.db);
    const { members } = await snapshot(database.db);
    const member = members.find((m) => !m.bot && m.user_id !== DEMO_OWNER_ID)!;
    const granted = [...member.role_ids, '1100000000000000106'];
    await database.db.updateTable('platform_members').set({ role_ids: granted }).where('guild_id', '=', DEMO_GUILD_ID).where('user_id', '=', member.user_id).execute();
    await seedDemoGuild(database.db);
    const after = await database.db.selectFrom('platform_members').select('role_ids').where('guild_id', '=', DEMO_GUILD_ID).where('user_id', '=', member.user_id).executeTakeFirstOrThrow();
    expect(after.role_ids).toEqual(granted);
  });

  it('has a moderation history: cases from several sources with timelines, bans, and appeals waiting for a decision', async () => {
    await seedDemoGuild(database.db);
    const { key } = await createApiKey(database.db, systemClock, {
      guildId: DEMO_GUILD_ID,
      name: 'demo moderation',
      scopes: ['moderation:read', 'appeals:read'],
      expiresInDays: null,
      createdBy: DEMO_OWNER_ID,
      actor: { type: 'system' },
    });
    const cases = await app.http('GET', `/guilds/${DEMO_GUILD_ID}/moderation/cases?limit=100`, { headers: bearer(key) });
    expect(cases.status).toBe(200);
    const items: Array<{ number: number; action: string; source: string; userId: string }> = cases.body.items;
    expect(items.length).toBeGreaterThanOrEqual(5);
    expect(new Set(items.map((c) => c.action))).toEqual(new Set(['warn', 'timeout', 'kick', 'ban']));
    expect(new Set(items.map((c) => c.source)).size).toBeGreaterThanOrEqual(3);
    const active = await app.http('GET', `/guilds/${DEMO_GUILD_ID}/moderation/cases?active=1`, { headers: bearer(key) });
    expect(active.body.items.map((c: { action: string }) => c.action)).toEqual(['warn', 'warn']);

    const timeout = items.find((c) => c.action === 'timeout')!;
    const detail = await app.http('GET', `/guilds/${DEMO_GUILD_ID}/moderation/cases/${timeout.number}`, { headers: bearer(key) });
    expect(detail.body).toMatchObject({ active: false, resolvedAt: expect.any(String) });
    expect(detail.body.events.map((e: { type: string }) => e.type)).toEqual(['created', 'dm', 'expired']);

    const { bans, events } = await snapshot(database.db);
    for (const ban of items.filter((c) => c.action === 'ban')) expect(bans.map((b) => b.user_id)).toContain(ban.userId);
    expect(events.filter((e) => e.type === 'moderation.caseCreated')).toHaveLength(items.length);

    const waiting = await app.http('GET', `/guilds/${DEMO_GUILD_ID}/appeals`, { headers: bearer(key) });
    expect(waiting.status).toBe(200);
    expect(waiting.body.items.map((a: { status: string }) => a.status).sort()).toEqual(['open', 'question']);
    const all = await app.http('GET', `/guilds/${DEMO_GUILD_ID}/appeals?status=all`, { headers: bearer(key) });
    expect(all.body.items.map((a: { status: string }) => a.status)).toContain('rejected');
    expect(events.filter((e) => e.type === 'appeals.submitted')).toHaveLength(all.body.items.length);
    for (const appeal of all.body.items as Array<{ userId: string; banCaseNumber: number }>) {
      expect(items.find((c) => c.number === appeal.banCaseNumber)).toMatchObject({ action: 'ban', userId: appeal.userId });
    }

    const question = waiting.body.items.find((a: { status: string }) => a.status === 'question');
    const asked = await app.http('GET', `/guilds/${DEMO_GUILD_ID}/appeals/${question.number}`, { headers: bearer(key) });
    expect(asked.body.answers.length).toBeGreaterThan(0);
    expect(asked.body.messages).toHaveLength(1);
    expect(asked.body.messages[0]).toMatchObject({ author: 'staff' });
    expect(JSON.stringify(asked.body)).not.toContain('Internal');
  });

  it('is served by the api', async () => {
    await seedDemoGuild(database.db);
    const { key } = await createApiKey(database.db, systemClock, {
      guildId: DEMO_GUILD_ID,
      name: 'demo test',
      scopes: ['guild:read'],
      expiresInDays: null,
      createdBy: DEMO_OWNER_ID,
      actor: { type: 'system' },
    });
    const guild = await app.http('GET', `/guilds/${DEMO_GUILD_ID}`, { headers: bearer(key) });
    expect(guild.status).toBe(200);
    expect(guild.body).toMatchObject({ id: DEMO_GUILD_ID, name: 'Demo Community', locale: 'en', enabledFeatures: [...FEATURES] });
    expect(guild.body.memberCount).toBe(48);

    const roles = await app.http('GET', `/guilds/${DEMO_GUILD_ID}/roles`, { headers: bearer(key) });
    expect(roles.status).toBe(200);
    expect(roles.body.items[0].name).toBe('Owner');
    expect(roles.body.items.map((r: { name: string }) => r.name)).not.toContain('@everyone');

    const channels = await app.http('GET', `/guilds/${DEMO_GUILD_ID}/channels`, { headers: bearer(key) });
    expect(channels.status).toBe(200);
    expect(channels.body.items[0]).toMatchObject({ type: 'category', parentId: null });
    expect(channels.body.items.map((c: { name: string }) => c.name)).not.toContain('welcome thread');

    const owner = await app.http('GET', `/guilds/${DEMO_GUILD_ID}/members/${DEMO_OWNER_ID}`, { headers: bearer(key) });
    expect(owner.status).toBe(200);
    expect(owner.body).toMatchObject({ userId: DEMO_OWNER_ID, username: 'demo-owner', bot: false });
  });
});
