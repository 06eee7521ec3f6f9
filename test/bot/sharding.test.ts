import { describe, expect, it } from 'vitest';
import { BotStartError } from '../../process/bot/startBot.js';
import { useTestDatabase } from '../harness/database.js';
import { createTestGuild, snowflake } from '../harness/fixtures.js';
import { startBotBed } from './botHarness.js';
import { memberMessage } from './payloads.js';

// Which shards a bot process runs: Discord's recommended count (GET /gateway/bot) or DISCORD_SHARD_COUNT, and the
// range DISCORD_SHARD_IDS names; a session limit reached is one clear refusal.

const NOW = new Date('2026-11-25T12:00:00Z');
const database = useTestDatabase();

describe('sharding', () => {
  it("identifies every shard of Discord's recommended count when nothing is set, and handles each shard's dispatches", async () => {
    const bed = await startBotBed(database, NOW, { shards: 2 });
    try {
      expect(bed.gateway.identifies.map((i) => i.shard).sort()).toEqual([
        [0, 2],
        [1, 2],
      ]);
      const guild = await createTestGuild(database.db);
      const user = snowflake();
      const handled = new Promise<void>((resolve) => bed.bot.events.on('handled', (t: string) => t === 'MESSAGE_CREATE' && resolve()));
      bed.gateway.dispatch('MESSAGE_CREATE', memberMessage(guild.id, user, NOW), 1);
      await handled;
      expect(await database.db.selectFrom('level_members').select('xp').where('guild_id', '=', guild.id).where('user_id', '=', user).executeTakeFirst()).toBeDefined();
      expect((await bed.bot.shards()).map((s) => [s.id, s.status])).toEqual([
        [0, 'ready'],
        [1, 'ready'],
      ]);
    } finally {
      await bed.close();
    }
  });

  it('runs only the range DISCORD_SHARD_IDS names, out of DISCORD_SHARD_COUNT', async () => {
    const bed = await startBotBed(database, NOW, { shards: 1 }, {}, {}, { DISCORD_SHARD_COUNT: '4', DISCORD_SHARD_IDS: '2-3' });
    try {
      expect(bed.gateway.identifies.map((i) => i.shard).sort()).toEqual([
        [2, 4],
        [3, 4],
      ]);
    } finally {
      await bed.close();
    }
  });

  it('refuses to start in one line when Discord has fewer sessions left than shards to start', async () => {
    const failure = await startBotBed(database, NOW, { shards: 2, sessionStartLimit: { total: 1000, remaining: 1 } }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(BotStartError);
    expect((failure as Error).message).toMatch(/^Discord allows no more gateway sessions now \(session_start_limit\): Not enough sessions remaining to spawn 2 shards; only 1 remaining/);
  });
});
