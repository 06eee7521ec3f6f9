import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XP_PER_MESSAGE } from '../../src/levels/activityXp.js';
import { useTestDatabase } from '../harness/database.js';
import { createTestGuild, snowflake, type TestGuild } from '../harness/fixtures.js';
import { startBotBed, type BotBed } from './botHarness.js';

// MESSAGE_CREATE through the real bot against the fake gateway: XP from activity as `simulate level-activity`
// records it, once per Discord message id; bots, webhooks and Discord's system messages earn nothing.

const NOW = new Date('2026-11-25T12:00:00Z');
const database = useTestDatabase();
let bed: BotBed;
let guild: TestGuild;
let noLevels: TestGuild;

beforeAll(async () => {
  guild = await createTestGuild(database.db);
  noLevels = await createTestGuild(database.db, { features: ['members'] });
  bed = await startBotBed(database, NOW);
});
afterAll(() => bed?.close());

const message = (guildId: string, authorId: string, extra: Record<string, unknown> = {}, author: Record<string, unknown> = {}) => ({
  id: snowflake(),
  channel_id: snowflake(),
  guild_id: guildId,
  author: { id: authorId, username: 'zoe', discriminator: '0', global_name: null, avatar: null, ...author },
  content: 'hello',
  timestamp: NOW.toISOString(),
  edited_timestamp: null,
  tts: false,
  mention_everyone: false,
  mentions: [],
  mention_roles: [],
  attachments: [],
  embeds: [],
  pinned: false,
  type: 0,
  ...extra,
});

const levelRow = (guildId: string, userId: string) =>
  database.db.selectFrom('level_members').select(['xp', 'messages', 'last_xp_at']).where('guild_id', '=', guildId).where('user_id', '=', userId).executeTakeFirst();
const activityAudit = (guildId: string, userId: string) =>
  database.db.selectFrom('audit_log').select(['actor_type', 'data']).where('guild_id', '=', guildId).where('action', '=', 'levels.activity').where('target_id', '=', userId).execute();

describe('MESSAGE_CREATE', () => {
  it("earns the author one message of XP, with the activity's audit row", async () => {
    const user = snowflake();
    await bed.dispatch('MESSAGE_CREATE', message(guild.id, user));
    await bed.dispatch('MESSAGE_CREATE', message(guild.id, user, { type: 19 }));
    expect(await levelRow(guild.id, user)).toEqual({ xp: 2 * XP_PER_MESSAGE, messages: 2, last_xp_at: NOW });
    expect(await activityAudit(guild.id, user)).toHaveLength(2);
    expect((await activityAudit(guild.id, user))[0]).toMatchObject({ actor_type: 'system', data: { messages: 1, voiceMinutes: 0, xpEarned: XP_PER_MESSAGE } });
  });

  it('counts a message delivered twice once', async () => {
    const user = snowflake();
    const m = message(guild.id, user);
    await bed.dispatch('MESSAGE_CREATE', m);
    await bed.dispatch('MESSAGE_CREATE', m);
    expect(await levelRow(guild.id, user)).toEqual({ xp: XP_PER_MESSAGE, messages: 1, last_xp_at: NOW });
    expect(await activityAudit(guild.id, user)).toHaveLength(1);
  });

  it("ignores bots, webhooks, Discord's system messages, direct messages and servers without Levels", async () => {
    const user = snowflake();
    await bed.dispatch('MESSAGE_CREATE', message(guild.id, user, {}, { bot: true }));
    await bed.dispatch('MESSAGE_CREATE', message(guild.id, user, {}, { system: true }));
    await bed.dispatch('MESSAGE_CREATE', message(guild.id, user, { webhook_id: snowflake() }));
    await bed.dispatch('MESSAGE_CREATE', message(guild.id, user, { type: 7 }));
    await bed.dispatch('MESSAGE_CREATE', message(guild.id, user, { guild_id: undefined }));
    await bed.dispatch('MESSAGE_CREATE', message(noLevels.id, user));
    await bed.dispatch('MESSAGE_CREATE', message(snowflake(), user));
    expect(await levelRow(guild.id, user)).toBeUndefined();
    expect(await levelRow(noLevels.id, user)).toBeUndefined();
    expect(await database.db.selectFrom('level_counted_messages').select('message_id').where('guild_id', '=', noLevels.id).execute()).toEqual([]);
    // The bot goes on: the next member message counts.
    await bed.dispatch('MESSAGE_CREATE', message(guild.id, user));
    expect(await levelRow(guild.id, user)).toMatchObject({ xp: XP_PER_MESSAGE, messages: 1 });
  });
});
