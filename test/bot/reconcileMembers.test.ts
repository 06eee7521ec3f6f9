import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPlatformMembers } from '../../db/platform/local.js';
import { RECONCILE_MEMBERS } from '../../process/bot/handlers/reconcileMembers.js';
import { useTestDatabase } from '../harness/database.js';
import { createDiscordGuild, type DiscordGuild } from '../harness/discordGuild.js';
import { startBotBed, type BotBed } from './botHarness.js';

// A long outage: Discord ends the session instead of letting it resume (close code 4007, invalid sequence), and the joins and
// leaves sent meanwhile are lost. On the new session the bot lists the server's members through REST (pages of
// two here) and records each missed join and leave once.

const NOW = new Date('2026-11-25T12:00:00Z');
const database = useTestDatabase();
let bed: BotBed;
let guild: DiscordGuild;

beforeAll(async () => {
  bed = await startBotBed(database, NOW);
  guild = await createDiscordGuild(database.db, bed.fake);
});
afterAll(() => bed?.close());

const user = (id: string) => ({ id, username: `u${id.slice(-4)}`, discriminator: '0', global_name: null, avatar: null });
const fakeGuild = () => bed.fake.state.guilds.get(guild.id)!;
const memberEvents = async () =>
  (await database.db.selectFrom('events').select(['type', 'data']).where('guild_id', '=', guild.id).where('type', 'in', ['members.joined', 'members.left']).orderBy('seq').execute()).map(
    (e) => [e.type, (e.data as { userId: string }).userId],
  );

/** Discord ends the session; resolves once the new session's reconciliation of this server is done. */
function newSession(): Promise<void> {
  const reconciled = new Promise<void>((resolve) => {
    const on = (t: string, _s: number, outcome: string) => {
      if (t !== RECONCILE_MEMBERS) return;
      bed.bot.events.off('handled', on);
      expect(outcome).toBe('handled');
      resolve();
    };
    bed.bot.events.on('handled', on);
  });
  bed.gateway.closeWith(4007, 'Invalid seq.');
  return reconciled;
}

describe('member reconciliation after a new gateway session', () => {
  it('records the joins and leaves missed while away once, dating joins by Discord, and nothing on the next session', async () => {
    // The members Discord had when the server was set up arrive once, as the joins they are for the service.
    await newSession();
    const [a, b] = [guild.addMember(), guild.addMember()];
    for (const id of [a, b]) {
      await bed.dispatch('GUILD_MEMBER_ADD', { guild_id: guild.id, user: user(id), roles: [], joined_at: NOW.toISOString(), deaf: false, mute: false, flags: 0 });
    }
    const before = await memberEvents();

    // While the bot is away: c joins and a leaves on Discord, and no dispatch reaches the bot.
    const c = guild.addMember();
    fakeGuild().members.get(c)!.joined_at = '2026-11-25T11:30:00.000Z';
    fakeGuild().members.delete(a);
    const identifies = bed.gateway.identifies.length;
    await newSession();

    expect(bed.gateway.identifies).toHaveLength(identifies + 1);
    expect((await memberEvents()).slice(before.length)).toEqual([
      ['members.joined', c],
      ['members.left', a],
    ]);
    const joinedC = await database.db.selectFrom('events').select('data').where('guild_id', '=', guild.id).where('type', '=', 'members.joined').execute();
    expect(joinedC.map((e) => e.data).find((d) => (d as { userId: string }).userId === c)).toMatchObject({ joinedAt: '2026-11-25T11:30:00.000Z' });
    const recorded = (await listPlatformMembers(database.db, guild.id)).map((m) => m.user_id).sort();
    expect(recorded).toEqual([...fakeGuild().members.keys()].sort());
    expect(recorded).toContain(b);

    const settled = await memberEvents();
    await newSession();
    expect(await memberEvents()).toEqual(settled);
  });
});
