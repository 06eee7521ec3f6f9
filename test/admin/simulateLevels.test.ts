import { describe, expect, it } from 'vitest';
import { addLevelReward, findLevelMember, saveLevelSettings } from '../../db/levels/members.js';
import { findPlatformMember, upsertPlatformChannels } from '../../db/platform/local.js';
import { listPlatformMessages } from '../../db/platform/messages.js';
import { applyLevelUpEffects } from '../../src/levels/applyLevelUpEffects.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { snowflake } from '../harness/fixtures.js';
import { cliGuild } from './cli.js';
import { useSimulateBed } from './simulateBed.js';

const NOW = new Date('2026-11-22T10:00:00Z');
const { database, admin, eventsOf, auditOf } = useSimulateBed(NOW);

describe('simulate level-activity', () => {
  it('counts messages and voice minutes into XP (20 and 10), without an event below the next level', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const user = snowflake();
    await admin('member', 'add', '--guild', id, '--user', user);
    const res = await admin('simulate', 'level-activity', '--guild', id, '--user', user, '--messages', '3', '--voice-minutes', '2', '--json');
    expect(res.stderr).toBe('');
    expect(res.json()).toEqual({
      userId: user,
      xpEarned: 80,
      xp: 80,
      previousLevel: 0,
      level: 0,
      messages: 3,
      voiceMinutes: 2,
      levelUpEffects: 'none',
      events: [],
      fanout: 'none',
    });
    expect(await findLevelMember(database.db, id, user)).toMatchObject({ xp: 80, messages: 3, voiceMinutes: 2, lastXpAt: NOW });
    expect(await auditOf(id, 'levels.activity')).toMatchObject([
      { actor_type: 'operator', actor_id: 'alice', target_id: user, data: { messages: 3, voiceMinutes: 2, xpEarned: 80, previousLevel: 0, level: 0 } },
    ]);
    expect(await eventsOf(id, 'levels.levelUp')).toEqual([]);
  });

  it('emits levels.levelUp with source activity on a new level, its reward roles and announcement recorded for the worker', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const [user, announce, rewardRole] = [snowflake(), snowflake(), snowflake()];
    await upsertPlatformChannels(database.db, id, [{ channelId: announce, name: 'level-ups', type: 'text', position: 0 }]);
    await saveLevelSettings(database.db, id, { announceChannelId: announce, announceTemplate: 'GG {user}, level {level}!', removePreviousRewards: false });
    await addLevelReward(database.db, id, { level: 2, roleId: rewardRole });
    await admin('member', 'add', '--guild', id, '--user', user);
    await admin('simulate', 'level-activity', '--guild', id, '--user', user, '--messages', '4');

    // 80 XP so far; 18 more messages make 440 XP: level 2 (255 XP) but not 3 (475).
    const res = await admin('simulate', 'level-activity', '--guild', id, '--user', user, '--messages', '18', '--json');
    expect(res.code).toBe(0);
    const events = await eventsOf(id, 'levels.levelUp');
    const data = { userId: user, level: 2, previousLevel: 0, source: 'activity' };
    expect(events).toEqual([{ id: expect.stringMatching(/^evt_/), createdAt: NOW, data }]);
    expect(res.json()).toEqual({
      userId: user,
      xpEarned: 360,
      xp: 440,
      previousLevel: 0,
      level: 2,
      messages: 22,
      voiceMinutes: 0,
      levelUpEffects: 'relay',
      events: [{ id: events[0]!.id, type: 'levels.levelUp', createdAt: NOW.toISOString(), data }],
      fanout: 'relay',
    });
    // Recorded with the XP, keyed by the event, for workflow level-up/<guild>/<event> (test/bot/levelUpEffects.test.ts).
    const pending = await database.db.selectFrom('level_up_effects').select(['event_id', 'user_id', 'previous_level', 'level', 'applied_at']).where('guild_id', '=', id).execute();
    expect(pending).toEqual([{ event_id: events[0]!.id, user_id: user, previous_level: 0, level: 2, applied_at: null }]);
    // What the worker's activity does with them, on the local platform: the reward role and the announcement, once.
    for (let n = 0; n < 2; n += 1) expect(await applyLevelUpEffects(database.db, createLocalPlatform(database.db), events[0]!.id, NOW)).toEqual({ refused: [] });
    expect((await findPlatformMember(database.db, id, user))!.role_ids).toEqual([rewardRole]);
    expect((await listPlatformMessages(database.db, id, announce)).map((m) => m.content)).toEqual([`<@${user}>\n**Level 2**\nGG <@${user}>, level 2!`]);

    const text = await admin('simulate', 'level-activity', '--guild', id, '--user', user, '--voice-minutes', '4');
    expect(text.stdout.split('\n')).toEqual([
      `Member ${user} earned 40 XP: 480 XP, level 3 (was 2); 22 messages, 4 voice minutes in all.`,
      "Reward roles and announcement: left to the worker's start relay (Temporal not reachable from here; they apply within seconds once a worker runs).",
      expect.stringMatching(/^Event levels\.levelUp evt_\S+: fan-out left/),
    ]);
  });

  it("records --channel with the level-up: a server announcing in the member's current channel has it posted there", async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const [user, current, other] = [snowflake(), snowflake(), snowflake()];
    await upsertPlatformChannels(database.db, id, [
      { channelId: current, name: 'general', type: 'text', position: 0 },
      { channelId: other, name: 'level-ups', type: 'text', position: 1 },
    ]);
    await saveLevelSettings(database.db, id, { announceTo: 'current', announceChannelId: other, announceTemplate: '{user} is level {level}', removePreviousRewards: false });
    await admin('member', 'add', '--guild', id, '--user', user);
    const res = await admin('simulate', 'level-activity', '--guild', id, '--user', user, '--messages', '5', '--channel', current, '--json');
    expect(res.code).toBe(0);
    const [event] = await eventsOf(id, 'levels.levelUp');
    expect(await database.db.selectFrom('level_up_effects').select(['event_id', 'channel_id']).where('guild_id', '=', id).execute()).toEqual([{ event_id: event!.id, channel_id: current }]);
    expect(await applyLevelUpEffects(database.db, createLocalPlatform(database.db), event!.id, NOW)).toEqual({ refused: [] });
    expect((await listPlatformMessages(database.db, id, current)).map((m) => m.content)).toEqual([`<@${user}>\n**Level 1**\n<@${user}> is level 1`]);
    expect(await listPlatformMessages(database.db, id, other)).toEqual([]);
  });

  it('refuses an unknown member, a bot account and a guild without Levels (exit 1), changing nothing', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const [stranger, bot] = [snowflake(), snowflake()];
    await admin('member', 'add', '--guild', id, '--user', bot, '--bot');
    const unknown = await admin('simulate', 'level-activity', '--guild', id, '--user', stranger, '--messages', '5', '--json');
    expect(unknown.code).toBe(1);
    expect(unknown.error()).toEqual({ error: 'MEMBER_NOT_FOUND', message: 'The user is not a member of this server.' });
    const botRes = await admin('simulate', 'level-activity', '--guild', id, '--user', bot, '--messages', '5', '--json');
    expect(botRes.code).toBe(1);
    expect(botRes.error()).toEqual({ error: 'BOT_ACCOUNT', message: 'The target is a bot account.' });

    const off = await cliGuild(admin, { features: 'bank' });
    const member = snowflake();
    await admin('member', 'add', '--guild', off.id, '--user', member);
    const disabled = await admin('simulate', 'level-activity', '--guild', off.id, '--user', member, '--messages', '5', '--json');
    expect(disabled.code).toBe(1);
    expect(disabled.error()).toEqual({ error: 'FEATURE_DISABLED', message: `The Levels feature is disabled in guild ${off.id}.` });
    const noGuild = await admin('simulate', 'level-activity', '--guild', snowflake(), '--user', member, '--messages', '5', '--json');
    expect(noGuild.code).toBe(1);
    expect(noGuild.error().error).toBe('GUILD_NOT_FOUND');
    expect(await database.db.selectFrom('level_members').selectAll().where('guild_id', 'in', [id, off.id]).execute()).toEqual([]);
  });

  it.each([
    [[], 'MISSING_FLAG', '`simulate level-activity` needs --messages N or --voice-minutes M (or both).'],
    [['--messages', 'ten'], 'INVALID_ARGUMENT', '--messages must be a whole number from 0 to 100,000, got "ten".'],
    [['--messages=-1'], 'INVALID_ARGUMENT', '--messages must be a whole number from 0 to 100,000, got "-1".'],
    [['--voice-minutes', '100001'], 'INVALID_ARGUMENT', '--voice-minutes must be a whole number from 0 to 100,000, got "100001".'],
    [['--messages', '0', '--voice-minutes', '0'], 'INVALID_ARGUMENT', 'Nothing to count: --messages and --voice-minutes are both 0.'],
    [['--messages'], 'INVALID_ARGUMENT', '--messages needs a value (`simulate level-activity`).'],
    [['--messages', '5', '--channel', 'general'], 'INVALID_ARGUMENT', '--channel must be a snowflake id (17 to 20 digits), got "general".'],
  ])('refuses %j with exit code 2 (%s)', async (args, error, message) => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const user = snowflake();
    await admin('member', 'add', '--guild', id, '--user', user);
    const res = await admin('simulate', 'level-activity', '--guild', id, '--user', user, ...args, '--json');
    expect(res.code).toBe(2);
    expect(res.error()).toEqual({ error, message });
    expect(await findLevelMember(database.db, id, user)).toBeUndefined();
  });
});
