import { describe, expect, it } from 'vitest';
import { DISALLOWED_INTENTS_MESSAGE, SHARDING_REQUIRED_MESSAGE } from '../../process/bot/fatalCloses.js';
import { useTestDatabase } from '../harness/database.js';
import { startBotBed, type BotBed } from './botHarness.js';

// The close codes after which Discord will not take the connection again (4004, 4010-4014): @discordjs/ws leaves
// the shard idle, so the bot ends with one line saying what to change (the entrypoint prints it and exits 1).

const NOW = new Date('2026-11-25T12:00:00Z');
const database = useTestDatabase();

async function endedBy(close: (bed: BotBed) => void): Promise<{ line: string; identifies: number }> {
  const bed = await startBotBed(database, NOW);
  try {
    close(bed);
    const line = (await bed.bot.fatal).message;
    return { line, identifies: bed.gateway.identifies.length };
  } finally {
    await bed.close();
  }
}

describe('a fatal close code', () => {
  it.each([
    [
      4010,
      'Discord refused the shard (close code 4010, invalid shard): DISCORD_SHARD_IDS must name shards below DISCORD_SHARD_COUNT, the same count on every bot process; fix them and restart.',
    ],
    [4012, 'Discord refused the gateway version (close code 4012, invalid API version): this bot speaks gateway v10; update the bot and restart.'],
    [4013, 'Discord refused the intents (close code 4013, invalid intents): the intents this bot identifies with are not valid; update the bot and restart.'],
    [4014, DISALLOWED_INTENTS_MESSAGE],
  ])('%i ends the bot with its line', async (code, line) => {
    expect(await endedBy((bed) => bed.gateway.closeWith(code))).toEqual({ line, identifies: 1 });
  });

  it('4004 (the token reset while connected) ends the bot with its line', async () => {
    expect(await endedBy((bed) => bed.gateway.revokeToken())).toEqual({
      line: 'Discord refused the bot token on the gateway (close code 4004, authentication failed): the token was reset or revoked; set DISCORD_TOKEN to the current bot token from the Developer Portal and restart.',
      identifies: 1,
    });
  });

  it('4011 (sharding required) ends the bot with the shard count GET /gateway/bot now recommends', async () => {
    const { line } = await endedBy((bed) => bed.gateway.requireShards(3));
    expect(line).toBe(SHARDING_REQUIRED_MESSAGE(1, 3));
    expect(line).toBe(
      'Discord requires more shards (close code 4011, sharding required): this bot runs 1 and Discord now recommends 3; set DISCORD_SHARD_COUNT=3 on every bot process (or unset it to follow Discord) and restart.',
    );
  });
});
