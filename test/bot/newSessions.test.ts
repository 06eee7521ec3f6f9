import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Feature } from '../../src/core/features.js';
import { discordMemberList } from '../../src/platform/discord/discordMemberList.js';
import { gatewayPaused } from '../../process/bot/botMetrics.js';
import type { MemberList } from '../../src/platform/discord/discordMemberList.js';
import { addGuild, addMember, type FakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { useTestDatabase } from '../harness/database.js';
import { eventually } from '../harness/eventually.js';
import { createTestGuild, snowflake } from '../harness/fixtures.js';
import { fakeDiscordRest } from '../harness/fakeDiscordRest.js';
import { startBotBed, type BotBed } from './botHarness.js';
import { serverWithBot } from './fakeServer.js';

// A new gateway session of a bot in many servers: READY lists them, a GUILD_CREATE of each follows. The bot registers
// or refreshes each from the payload alone (no REST read of the server), reconciles the members only of servers
// whose features read them, a few at a time, and never stops reading the gateway for it.

const NOW = new Date('2026-11-25T12:00:00Z');
const database = useTestDatabase();
const RECONCILE_CONCURRENCY = 2;
/** READY and the 12 GUILD_CREATEs stay below it; with a reconciliation queued per server they would not. */
const MAX_QUEUED = 20;

interface Seeded {
  id: string;
  features: Feature[] | null;
  members: number;
}
// Members and Invites read member lists; Levels alone does not; null: not registered yet (the bot registers it).
const PLAN: Array<Pick<Seeded, 'features' | 'members'>> = [
  { features: ['members'], members: 3 },
  { features: ['members', 'levels'], members: 4 },
  // Past the large threshold (50): its GUILD_CREATE lists the bot's member alone.
  { features: ['members'], members: 60 },
  { features: ['invites'], members: 2 },
  { features: ['invites', 'members'], members: 5 },
  ...Array.from({ length: 4 }, () => ({ features: ['levels'] as Feature[], members: 3 })),
  ...Array.from({ length: 3 }, () => ({ features: null, members: 2 })),
];

let bed: BotBed;
let seeded: Seeded[];
let inFlight = 0;
let maxInFlight = 0;
const pausedValues: number[] = [];

/** The servers on the fake Discord (and those registered, in the database) before the bot connects. */
async function seedServers(fake: FakeDiscord): Promise<void> {
  seeded = [];
  for (const plan of PLAN) {
    const guild = plan.features ? await createTestGuild(database.db, { features: plan.features }) : { id: snowflake(), ownerId: snowflake() };
    const g = addGuild(fake.state, serverWithBot(fake, guild, 'Session Server'));
    for (let n = 0; n < plan.members; n += 1) addMember(fake.state, g, { id: snowflake(), username: `m${n}` });
    seeded.push({ id: guild.id, ...plan });
  }
}

beforeAll(async () => {
  const setPaused = gatewayPaused.set.bind(gatewayPaused);
  vi.spyOn(gatewayPaused, 'set').mockImplementation((value: number) => {
    pausedValues.push(value);
    setPaused(value);
  });
  let inner: MemberList | undefined;
  // Discord's member list as the bot reads it, held a moment so reconciliations running together overlap.
  const memberList: MemberList = async (guildId) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return await inner!(guildId);
    } finally {
      inFlight -= 1;
    }
  };
  bed = await startBotBed(
    database,
    NOW,
    {},
    { maxQueued: MAX_QUEUED, reconcile: { concurrency: RECONCILE_CONCURRENCY, requestsPerSecond: 1_000 } },
    { memberList },
    {},
    (fake) => {
      inner = discordMemberList({ rest: fakeDiscordRest(fake) });
      return seedServers(fake);
    },
  );
});
afterAll(async () => {
  vi.restoreAllMocks();
  await bed?.close();
});

const memberCount = async (guildId: string) =>
  Number((await database.db.selectFrom('platform_members').select((eb) => eb.fn.countAll<string>().as('n')).where('guild_id', '=', guildId).executeTakeFirstOrThrow()).n);
const readsMembersOf = (features: Feature[] | null) => !!features && features.some((f) => f === 'members' || f === 'invites');

describe('a new gateway session in many servers', () => {
  it('registers every server from its GUILD_CREATE without reading it, and reconciles only those whose features read members, a few at a time, never pausing the gateway', async () => {
    // READY counts as handled once every server's reconciliation is done or passed over: the session is then saved.
    await eventually(() => database.db.selectFrom('bot_gateway_sessions').select('seq').executeTakeFirst(), (row) => row !== undefined && Number(row.seq) >= 1);
    const registered = await database.db.selectFrom('guilds').select('id').where('id', 'in', seeded.map((s) => s.id)).execute();
    expect(registered).toHaveLength(seeded.length);

    const paths = bed.fake.requests.map((r) => `${r.method} ${r.path}`);
    // No read of the server, nor of the bot's user: READY gave its id.
    expect(paths.filter((p) => /^GET \/guilds\/\d+$/.test(p) || p === 'GET /users/@me')).toEqual([]);
    const listed = new Set(paths.filter((p) => p.endsWith('/members')).map((p) => p.split('/')[2]));
    expect([...listed].sort()).toEqual(seeded.filter((s) => readsMembersOf(s.features)).map((s) => s.id).sort());
    // Invites only where the Invites feature is on.
    const invitesRead = new Set(paths.filter((p) => p.endsWith('/invites')).map((p) => p.split('/')[2]));
    expect([...invitesRead].sort()).toEqual(seeded.filter((s) => s.features?.includes('invites')).map((s) => s.id).sort());

    expect(maxInFlight).toBe(RECONCILE_CONCURRENCY);
    expect(pausedValues.filter((v) => v === 1)).toEqual([]);
    expect(bed.gateway.connections).toHaveLength(1);

    // Reconciled: the members of the large server too, though its GUILD_CREATE listed only the bot.
    const large = seeded.find((s) => s.members === 60)!;
    expect(await memberCount(large.id)).toBe(61);
  });
});
