import { beforeAll, describe, expect, it } from 'vitest';
import { findGuild, type GuildRecord } from '../../db/guild/guilds.js';
import { saveLevelSettings } from '../../db/levels/members.js';
import { countMessages } from '../../src/levels/countMessage.js';
import { XP_PER_MESSAGE } from '../../src/levels/activityXp.js';
import { useTestDatabase } from '../harness/database.js';
import { createTestGuild, snowflake } from '../harness/fixtures.js';

// A batch of one server's messages in one call (what the bot hands over when messages queue up): the cooldown
// holds inside the batch, a message id counts once, and the audit rows, totals and level-ups are those of one
// call per message.

const NOW = new Date('2026-11-25T12:00:00Z');
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
const database = useTestDatabase();
let guild: GuildRecord;
let noLevels: GuildRecord;
const COOLDOWN_SECONDS = 60;

beforeAll(async () => {
  guild = (await findGuild(database.db, (await createTestGuild(database.db)).id))!;
  // The server's own cooldown, which countMessages reads (30 s past the last earning message is inside it).
  await saveLevelSettings(database.db, guild.id, { announceChannelId: null, announceTemplate: 'GG {user}', removePreviousRewards: false, messageCooldownSeconds: COOLDOWN_SECONDS });
  noLevels = (await findGuild(database.db, (await createTestGuild(database.db, { features: ['tickets'] })).id))!;
});

const pendingEffects = (guildId: string) =>
  database.db.selectFrom('level_up_effects').select(['event_id', 'user_id', 'previous_level', 'level', 'created_at', 'workflow_started_at', 'applied_at']).where('guild_id', '=', guildId).execute();

describe('countMessages', () => {
  it('applies the cooldown within a batch, counts a repeated id once, and records each earning message as one activity', async () => {
    const [a, b] = [snowflake(), snowflake()];
    // a is 10 XP short of level 1: their first message reaches it.
    await database.db.insertInto('level_members').values({ guild_id: guild.id, user_id: a, xp: 90, last_xp_at: null }).execute();
    const ids = Array.from({ length: 5 }, () => snowflake());
    const batch = [
      { userId: a, messageId: ids[0]!, at: NOW },
      { userId: b, messageId: ids[1]!, at: later(10) },
      { userId: a, messageId: ids[2]!, at: later(30) },
      { userId: a, messageId: ids[3]!, at: later(60) },
      { userId: a, messageId: ids[3]!, at: later(60) },
      { userId: a, messageId: ids[4]!, at: later(61) },
    ];
    const outcome = await database.db.transaction().execute((trx) => countMessages(trx, guild, batch, NOW));

    expect(outcome.earned).toBe(3);
    expect(outcome.levelUps).toEqual([{ guildId: guild.id, userId: a, previousLevel: 0, level: 1, eventId: expect.stringMatching(/^evt_/) }]);
    // The level's reward roles and announcement, recorded pending in the same transaction, keyed by the event.
    const eventId = outcome.levelUps[0]!.eventId;
    expect(await pendingEffects(guild.id)).toEqual([{ event_id: eventId, user_id: a, previous_level: 0, level: 1, created_at: NOW, workflow_started_at: null, applied_at: null }]);
    expect((await database.db.selectFrom('events').select('id').where('guild_id', '=', guild.id).where('type', '=', 'levels.levelUp').execute()).map((e) => e.id)).toEqual([eventId]);
    const rows = await database.db.selectFrom('level_members').select(['user_id', 'xp', 'messages', 'last_xp_at', 'last_message_xp_at']).where('guild_id', '=', guild.id).orderBy('user_id').execute();
    expect(rows.find((r) => r.user_id === a)).toEqual({ user_id: a, xp: 90 + 2 * XP_PER_MESSAGE, messages: 2, last_xp_at: later(60), last_message_xp_at: later(60) });
    expect(rows.find((r) => r.user_id === b)).toEqual({ user_id: b, xp: XP_PER_MESSAGE, messages: 1, last_xp_at: later(10), last_message_xp_at: later(10) });
    const audit = await database.db.selectFrom('audit_log').select(['target_id', 'data']).where('guild_id', '=', guild.id).where('action', '=', 'levels.activity').orderBy('id').execute();
    expect(audit).toEqual([
      { target_id: a, data: { messages: 1, voiceMinutes: 0, xpEarned: XP_PER_MESSAGE, previousLevel: 0, level: 1 } },
      { target_id: b, data: { messages: 1, voiceMinutes: 0, xpEarned: XP_PER_MESSAGE, previousLevel: 0, level: 0 } },
      { target_id: a, data: { messages: 1, voiceMinutes: 0, xpEarned: XP_PER_MESSAGE, previousLevel: 1, level: 1 } },
    ]);
    const counted = await database.db.selectFrom('level_counted_messages').select('message_id').where('guild_id', '=', guild.id).execute();
    expect(counted.map((r) => r.message_id).sort()).toEqual([...ids].sort());

    // The same batch again (a replay): nothing more.
    const again = await database.db.transaction().execute((trx) => countMessages(trx, guild, batch, NOW));
    expect(again).toEqual({ earned: 0, levelUps: [] });
    expect(await pendingEffects(guild.id)).toHaveLength(1);
  });

  it('counts nothing and claims no message id in a server with Levels off', async () => {
    const user = snowflake();
    const outcome = await database.db.transaction().execute((trx) => countMessages(trx, noLevels, [{ userId: user, messageId: snowflake(), at: NOW }], NOW));
    expect(outcome).toEqual({ earned: 0, levelUps: [] });
    expect(await database.db.selectFrom('level_counted_messages').select('message_id').where('guild_id', '=', noLevels.id).execute()).toEqual([]);
    expect(await database.db.selectFrom('level_members').select('user_id').where('guild_id', '=', noLevels.id).execute()).toEqual([]);
    expect(await pendingEffects(noLevels.id)).toEqual([]);
  });
});
