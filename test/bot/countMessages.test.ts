import { beforeAll, describe, expect, it } from 'vitest';
import { countMessages } from '../../src/levels/countMessage.js';
import { XP_PER_MESSAGE } from '../../src/levels/activityXp.js';
import { useTestDatabase } from '../harness/database.js';
import { createTestGuild, snowflake, type TestGuild } from '../harness/fixtures.js';

// A batch of one server's messages in one call (what the bot hands over when messages queue up): the cooldown
// holds inside the batch, a message id counts once, and the audit rows, totals and level-ups are those of one
// call per message.

const NOW = new Date('2026-11-25T12:00:00Z');
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
const database = useTestDatabase();
let guild: TestGuild;

beforeAll(async () => {
  guild = await createTestGuild(database.db);
});

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
    const outcome = await database.db.transaction().execute((trx) => countMessages(trx, guild.id, batch, 60, NOW));

    expect(outcome.earned).toBe(3);
    expect(outcome.levelUps).toEqual([{ userId: a, previousLevel: 0, level: 1, eventId: expect.stringMatching(/^evt_/) }]);
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
    const again = await database.db.transaction().execute((trx) => countMessages(trx, guild.id, batch, 60, NOW));
    expect(again).toEqual({ earned: 0, levelUps: [] });
  });
});
