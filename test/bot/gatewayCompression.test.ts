import { afterEach, describe, expect, it } from 'vitest';
import { findPlatformMember } from '../../db/platform/local.js';
import { useTestDatabase } from '../harness/database.js';
import { createTestGuild, snowflake } from '../harness/fixtures.js';
import { startBotBed, type BotBed } from './botHarness.js';
import { memberAddPayload } from './payloads.js';

// DISCORD_GATEWAY_COMPRESSION: the bot asks Discord for zlib-stream or for plain JSON, and handles what arrives either
// way. The fake counts the bytes it puts on the wire, so the test also shows what compression saves.

const NOW = new Date('2026-11-25T12:00:00Z');
const database = useTestDatabase();
let bed: BotBed | undefined;
afterEach(() => bed?.close());

async function joinsOverTheWire(compression: 'zlib-stream' | 'none') {
  const guild = await createTestGuild(database.db);
  bed = await startBotBed(database, NOW, {}, {}, {}, { DISCORD_GATEWAY_COMPRESSION: compression });
  const users = Array.from({ length: 50 }, () => snowflake());
  const before = bed.gateway.bytesSent();
  for (const id of users) await bed.dispatch('GUILD_MEMBER_ADD', memberAddPayload(guild.id, id, NOW, `member${id.slice(-4)}`));
  const bytes = bed.gateway.bytesSent() - before;
  for (const id of users) expect(await findPlatformMember(database.db, guild.id, id)).toBeDefined();
  const connections = bed.gateway.connections;
  await bed.close();
  bed = undefined;
  return { bytes, connections };
}

describe('the gateway transport compression setting', () => {
  it('connects with zlib-stream or plain JSON as set, handles every dispatch either way, and compressed costs fewer bytes', async () => {
    const compressed = await joinsOverTheWire('zlib-stream');
    const plain = await joinsOverTheWire('none');

    expect(compressed.connections).toEqual([{ compressed: true }]);
    expect(plain.connections).toEqual([{ compressed: false }]);
    // Similar payloads through one deflate context: each after the first mostly refers back to the earlier ones.
    expect(compressed.bytes).toBeGreaterThan(0);
    expect(compressed.bytes * 3).toBeLessThan(plain.bytes);
  });
});
