import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPlatformMember } from '../../db/platform/local.js';
import { useTestDatabase } from '../harness/database.js';
import { createTestGuild, snowflake, type TestGuild } from '../harness/fixtures.js';
import { startBotBed, type BotBed } from './botHarness.js';
import { memberAddPayload } from './payloads.js';

// The gateway dropped mid-stream: the bot resumes its session, and the events sent meanwhile (Discord's replay)
// are applied once, none lost.

const NOW = new Date('2026-11-25T12:00:00Z');
const database = useTestDatabase();
let bed: BotBed;
let guild: TestGuild;

beforeAll(async () => {
  guild = await createTestGuild(database.db);
  bed = await startBotBed(database, NOW);
});
afterAll(() => bed?.close());

const user = (id: string) => ({ id, username: `u${id.slice(-4)}`, discriminator: '0', global_name: null, avatar: null });
const add = (userId: string) => memberAddPayload(guild.id, userId, NOW, user(userId).username);

describe('a dropped gateway connection', () => {
  it('is resumed with the last sequence seen; the replayed events are applied once and nothing is identified again', async () => {
    const [a, b, c] = [snowflake(), snowflake(), snowflake()];
    const before = await bed.dispatch('GUILD_MEMBER_ADD', add(a));

    const resumed = once(bed.gateway.events, 'resume');
    bed.gateway.drop();
    // Sent while the bot is away: the fake keeps them for the session's replay, as Discord does.
    bed.gateway.dispatch('GUILD_MEMBER_ADD', add(b));
    bed.gateway.dispatch('GUILD_MEMBER_REMOVE', { guild_id: guild.id, user: user(a) });
    const last = bed.dispatch('GUILD_MEMBER_ADD', add(c));
    expect(await resumed).toEqual([{ sessionId: bed.gateway.sessionOf()!.id, seq: before }]);
    await last;

    expect(bed.gateway.identifies).toHaveLength(1);
    // Both connections, the first and the resumed one, carried compressed payloads the bot inflated.
    expect(bed.gateway.connections).toEqual([{ compressed: true }, { compressed: true }]);
    expect(await findPlatformMember(database.db, guild.id, a)).toBeUndefined();
    expect(await findPlatformMember(database.db, guild.id, b)).toBeDefined();
    expect(await findPlatformMember(database.db, guild.id, c)).toBeDefined();
    const events = await database.db.selectFrom('events').select(['type', 'data']).where('guild_id', '=', guild.id).orderBy('seq').execute();
    expect(events.map((e) => [e.type, (e.data as { userId: string }).userId])).toEqual([
      ['members.joined', a],
      ['members.joined', b],
      ['members.left', a],
      ['members.joined', c],
    ]);
  });
});
