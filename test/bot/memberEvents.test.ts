import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPlatformMember } from '../../db/platform/local.js';
import { banPlatformUser } from '../../db/platform/moderation.js';
import { BOT_INTENTS } from '../../process/bot/startBot.js';
import { useTestDatabase } from '../harness/database.js';
import { createTestGuild, snowflake, type TestGuild } from '../harness/fixtures.js';
import { startBotBed, type BotBed } from './botHarness.js';
import { memberAddPayload } from './payloads.js';

// GUILD_MEMBER_ADD / REMOVE through the real bot against the fake gateway: the same use cases as
// `simulate member-join` / `member-leave`, idempotent by Discord's ids.

const NOW = new Date('2026-11-25T12:00:00Z');
const JOINED = new Date('2026-11-25T11:59:58.123Z');
const database = useTestDatabase();
let bed: BotBed;
let guild: TestGuild;

beforeAll(async () => {
  guild = await createTestGuild(database.db);
  bed = await startBotBed(database, NOW);
});
afterAll(() => bed?.close());

const memberAdd = (guildId: string, userId: string, username = 'zoe', roles: string[] = []) => memberAddPayload(guildId, userId, JOINED, username, roles);
const memberRemove = (guildId: string, userId: string) => ({ guild_id: guildId, user: { id: userId, username: 'zoe', discriminator: '0', global_name: null, avatar: null } });

const eventsOf = (type: string) =>
  database.db.selectFrom('events').select(['type', 'data', 'created_at']).where('guild_id', '=', guild.id).where('type', '=', type).orderBy('seq').execute();
const auditOf = (action: string, userId: string) =>
  database.db.selectFrom('audit_log').selectAll().where('guild_id', '=', guild.id).where('action', '=', action).where('target_id', '=', userId).execute();

describe('the bot process on the gateway', () => {
  it('identifies with the bot token and the intents issue 24 lists, after asking GET /gateway/bot', () => {
    expect(bed.gateway.identifies).toEqual([{ token: bed.fake.token, intents: BOT_INTENTS, shard: [0, 1] }]);
    // guilds, guild members, guild moderation, guild invites, guild messages, message content
    expect(BOT_INTENTS).toBe(1 | 2 | 4 | 64 | 512 | 32768);
    expect(bed.fake.requests.filter((r) => r.path === '/gateway/bot').map((r) => r.status)).toEqual([200]);
  });
});

describe('GUILD_MEMBER_ADD', () => {
  it('records the member with the audit row and members.joined, dated by Discord', async () => {
    const [user, role] = [snowflake(), snowflake()];
    await bed.dispatch('GUILD_MEMBER_ADD', memberAdd(guild.id, user, 'zoe', [role]));
    expect(await findPlatformMember(database.db, guild.id, user)).toMatchObject({ username: 'zoe', bot: false, role_ids: [role], joined_at: JOINED });
    const joined = (await eventsOf('members.joined')).filter((e) => (e.data as { userId: string }).userId === user);
    expect(joined).toEqual([
      {
        type: 'members.joined',
        created_at: JOINED,
        data: { userId: user, username: 'zoe', bot: false, inviterId: null, inviteCode: null, joinedAt: JOINED.toISOString() },
      },
    ]);
    expect(await auditOf('members.join', user)).toEqual([expect.objectContaining({ actor_type: 'system' })]);
  });

  it('is one join when Discord sends the same add twice; the second only refreshes the username and roles', async () => {
    const [user, role] = [snowflake(), snowflake()];
    await bed.dispatch('GUILD_MEMBER_ADD', memberAdd(guild.id, user));
    await bed.dispatch('GUILD_MEMBER_ADD', memberAdd(guild.id, user, 'zoe2', [role]));
    expect((await eventsOf('members.joined')).filter((e) => (e.data as { userId: string }).userId === user)).toHaveLength(1);
    expect(await auditOf('members.join', user)).toHaveLength(1);
    expect(await findPlatformMember(database.db, guild.id, user)).toMatchObject({ username: 'zoe2', role_ids: [role], joined_at: JOINED });
  });

  it('records nothing for a server the service does not know, and goes on with the next event', async () => {
    const [unknownGuild, user, next] = [snowflake(), snowflake(), snowflake()];
    await bed.dispatch('GUILD_MEMBER_ADD', memberAdd(unknownGuild, user));
    expect(await findPlatformMember(database.db, unknownGuild, user)).toBeUndefined();
    expect(await database.db.selectFrom('events').select('id').where('guild_id', '=', unknownGuild).execute()).toEqual([]);
    await bed.dispatch('GUILD_MEMBER_ADD', memberAdd(guild.id, next));
    expect(await findPlatformMember(database.db, guild.id, next)).toBeDefined();
  });
});

describe('GUILD_MEMBER_ADD of a banned user', () => {
  it('records no member, audit row or event', async () => {
    const user = snowflake();
    await banPlatformUser(database.db, { guildId: guild.id, userId: user, reason: 'spam' });
    await bed.dispatch('GUILD_MEMBER_ADD', memberAdd(guild.id, user));
    expect(await findPlatformMember(database.db, guild.id, user)).toBeUndefined();
    expect(await auditOf('members.join', user)).toEqual([]);
    expect((await eventsOf('members.joined')).filter((e) => (e.data as { userId: string }).userId === user)).toEqual([]);
  });
});

describe('GUILD_MEMBER_REMOVE', () => {
  it('removes the member and records members.left once, however often Discord sends it', async () => {
    const user = snowflake();
    await bed.dispatch('GUILD_MEMBER_ADD', memberAdd(guild.id, user));
    await bed.dispatch('GUILD_MEMBER_REMOVE', memberRemove(guild.id, user));
    await bed.dispatch('GUILD_MEMBER_REMOVE', memberRemove(guild.id, user));
    expect(await findPlatformMember(database.db, guild.id, user)).toBeUndefined();
    const left = (await eventsOf('members.left')).filter((e) => (e.data as { userId: string }).userId === user);
    expect(left).toEqual([{ type: 'members.left', created_at: NOW, data: { userId: user, username: 'zoe', reason: 'left', leftAt: NOW.toISOString() } }]);
    expect(await auditOf('members.leave', user)).toEqual([expect.objectContaining({ actor_type: 'system' })]);
  });
});
