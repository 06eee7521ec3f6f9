import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addLevelReward, saveLevelSettings } from '../../db/levels/members.js';
import { XP_PER_MESSAGE } from '../../src/levels/activityXp.js';
import { useTestDatabase } from '../harness/database.js';
import { createDiscordGuild, type DiscordGuild } from '../harness/discordGuild.js';
import { createTestGuild, snowflake, type TestGuild } from '../harness/fixtures.js';
import { startBotBed, type BotBed } from './botHarness.js';
import { memberMessage } from './payloads.js';

// MESSAGE_CREATE through the real bot against the fake gateway: XP from activity as `simulate level-activity`
// records it, once per Discord message id and per cooldown (the message's own time is the clock); a level
// reached records its reward roles and announcement for the worker; bots, webhooks and Discord's system messages earn nothing.

const NOW = new Date('2026-11-25T12:00:00Z');
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
const COOLDOWN_SECONDS = 60;
const database = useTestDatabase();
let bed: BotBed;
let guild: DiscordGuild;
let noLevels: TestGuild;

beforeAll(async () => {
  bed = await startBotBed(database, NOW);
  guild = await createDiscordGuild(database.db, bed.fake);
  await saveLevelSettings(database.db, guild.id, { announceChannelId: null, announceTemplate: 'GG {user}', removePreviousRewards: false, messageCooldownSeconds: COOLDOWN_SECONDS });
  await addLevelReward(database.db, guild.id, { level: 1, roleId: guild.roles.reward });
  noLevels = await createTestGuild(database.db, { features: ['members'] });
});
afterAll(() => bed?.close());

const message = (guildId: string, authorId: string, at = NOW, extra: Record<string, unknown> = {}, author: Record<string, unknown> = {}) =>
  memberMessage(guildId, authorId, at, extra, author);

const levelRow = (guildId: string, userId: string) =>
  database.db.selectFrom('level_members').select(['xp', 'messages', 'last_xp_at']).where('guild_id', '=', guildId).where('user_id', '=', userId).executeTakeFirst();
const activityAudit = (guildId: string, userId: string) =>
  database.db.selectFrom('audit_log').select(['actor_type', 'data']).where('guild_id', '=', guildId).where('action', '=', 'levels.activity').where('target_id', '=', userId).execute();
const levelUps = (userId: string) =>
  database.db
    .selectFrom('events')
    .select('data')
    .where('guild_id', '=', guild.id)
    .where('type', '=', 'levels.levelUp')
    .execute()
    .then((rows) => rows.map((r) => r.data).filter((d) => (d as { userId: string }).userId === userId));

describe('MESSAGE_CREATE', () => {
  it("earns the author one message of XP at the message's time, with the activity's audit row", async () => {
    const user = snowflake();
    await bed.dispatch('MESSAGE_CREATE', message(guild.id, user));
    await bed.dispatch('MESSAGE_CREATE', message(guild.id, user, later(COOLDOWN_SECONDS), { type: 19 }));
    expect(await levelRow(guild.id, user)).toEqual({ xp: 2 * XP_PER_MESSAGE, messages: 2, last_xp_at: later(COOLDOWN_SECONDS) });
    expect(await activityAudit(guild.id, user)).toHaveLength(2);
    expect((await activityAudit(guild.id, user))[0]).toMatchObject({ actor_type: 'system', data: { messages: 1, voiceMinutes: 0, xpEarned: XP_PER_MESSAGE } });
  });

  it("earns nothing within the cooldown after the member's last XP-earning message, from the server's levels settings", async () => {
    const user = snowflake();
    await bed.dispatch('MESSAGE_CREATE', message(guild.id, user, NOW));
    await bed.dispatch('MESSAGE_CREATE', message(guild.id, user, later(30)));
    await bed.dispatch('MESSAGE_CREATE', message(guild.id, user, later(COOLDOWN_SECONDS - 1)));
    expect(await levelRow(guild.id, user)).toEqual({ xp: XP_PER_MESSAGE, messages: 1, last_xp_at: NOW });
    // The cooldown counts from the last message that earned XP, not from the ones in between.
    await bed.dispatch('MESSAGE_CREATE', message(guild.id, user, later(COOLDOWN_SECONDS)));
    expect(await levelRow(guild.id, user)).toEqual({ xp: 2 * XP_PER_MESSAGE, messages: 2, last_xp_at: later(COOLDOWN_SECONDS) });
    expect(await activityAudit(guild.id, user)).toHaveLength(2);
  });

  it('counts a message delivered twice once', async () => {
    const user = snowflake();
    const m = message(guild.id, user);
    await bed.dispatch('MESSAGE_CREATE', m);
    await bed.dispatch('MESSAGE_CREATE', m);
    expect(await levelRow(guild.id, user)).toEqual({ xp: XP_PER_MESSAGE, messages: 1, last_xp_at: NOW });
    expect(await activityAudit(guild.id, user)).toHaveLength(1);
  });

  it('records levels.levelUp from activity with its reward roles and announcement pending, calling nothing on Discord', async () => {
    const user = guild.addMember();
    // Level 1 takes 100 XP: five messages, each past the cooldown.
    for (let n = 0; n < 4; n += 1) await bed.dispatch('MESSAGE_CREATE', message(guild.id, user, later(n * COOLDOWN_SECONDS)));
    expect(await levelUps(user)).toEqual([]);
    await bed.dispatch('MESSAGE_CREATE', message(guild.id, user, later(4 * COOLDOWN_SECONDS)));
    expect(await levelRow(guild.id, user)).toMatchObject({ xp: 5 * XP_PER_MESSAGE, messages: 5 });
    expect(await levelUps(user)).toEqual([{ userId: user, level: 1, previousLevel: 0, source: 'activity' }]);
    const effects = await database.db.selectFrom('level_up_effects').select(['user_id', 'previous_level', 'level', 'applied_at']).where('guild_id', '=', guild.id).where('user_id', '=', user).execute();
    expect(effects).toEqual([{ user_id: user, previous_level: 0, level: 1, applied_at: null }]);
    // The worker applies them (test/bot/levelUpEffects.test.ts); the bot's lane never waits on Discord for them.
    expect(bed.fake.requests.filter((r) => r.path.includes(`/members/${user}/roles/`))).toEqual([]);
    expect(bed.fake.state.guilds.get(guild.id)!.members.get(user)!.roles).not.toContain(guild.roles.reward);
  });

  it("ignores bots, webhooks, Discord's system messages, direct messages and servers without Levels", async () => {
    const user = snowflake();
    await bed.dispatch('MESSAGE_CREATE', message(guild.id, user, NOW, {}, { bot: true }));
    await bed.dispatch('MESSAGE_CREATE', message(guild.id, user, NOW, {}, { system: true }));
    await bed.dispatch('MESSAGE_CREATE', message(guild.id, user, NOW, { webhook_id: snowflake() }));
    await bed.dispatch('MESSAGE_CREATE', message(guild.id, user, NOW, { type: 7 }));
    await bed.dispatch('MESSAGE_CREATE', message(guild.id, user, NOW, { guild_id: undefined }));
    await bed.dispatch('MESSAGE_CREATE', message(noLevels.id, user));
    await bed.dispatch('MESSAGE_CREATE', message(snowflake(), user));
    expect(await levelRow(guild.id, user)).toBeUndefined();
    expect(await levelRow(noLevels.id, user)).toBeUndefined();
    expect(await database.db.selectFrom('level_counted_messages').select('message_id').where('guild_id', '=', noLevels.id).execute()).toEqual([]);
    // The bot goes on: the next member message counts.
    await bed.dispatch('MESSAGE_CREATE', message(guild.id, user));
    expect(await levelRow(guild.id, user)).toMatchObject({ xp: XP_PER_MESSAGE, messages: 1 });
  });

  it("earns the server's own XP per message, and nothing in a no-XP channel or for a member with a no-XP role (not even counted)", async () => {
    const rules = await createDiscordGuild(database.db, bed.fake);
    await saveLevelSettings(database.db, rules.id, {
      announceChannelId: null,
      announceTemplate: 'GG {user}',
      removePreviousRewards: false,
      messageCooldownSeconds: 0,
      xpPerMessage: 7,
      noXpChannelIds: [rules.channels.log],
      noXpRoleIds: [rules.roles.moderator],
    });
    const user = snowflake();
    const inChannel = (channelId: string, roles: string[], at: Date) => message(rules.id, user, at, { channel_id: channelId, member: { roles, joined_at: NOW.toISOString(), deaf: false, mute: false, flags: 0 } });
    await bed.dispatch('MESSAGE_CREATE', inChannel(rules.channels.log, [rules.roles.member], NOW));
    await bed.dispatch('MESSAGE_CREATE', inChannel(rules.channels.general, [rules.roles.member, rules.roles.moderator], later(1)));
    expect(await levelRow(rules.id, user)).toBeUndefined();
    expect(await database.db.selectFrom('level_counted_messages').select('message_id').where('guild_id', '=', rules.id).execute()).toEqual([]);
    await bed.dispatch('MESSAGE_CREATE', inChannel(rules.channels.general, [rules.roles.member], later(2)));
    expect(await levelRow(rules.id, user)).toEqual({ xp: 7, messages: 1, last_xp_at: later(2) });
    expect((await activityAudit(rules.id, user))[0]).toMatchObject({ data: { messages: 1, xpEarned: 7 } });
    // A changed rate changes the next message's XP.
    await saveLevelSettings(database.db, rules.id, { announceChannelId: null, announceTemplate: 'GG {user}', removePreviousRewards: false, xpPerMessage: 31 });
    await bed.dispatch('MESSAGE_CREATE', inChannel(rules.channels.general, [], later(3)));
    expect(await levelRow(rules.id, user)).toEqual({ xp: 38, messages: 2, last_xp_at: later(3) });
  });
});
