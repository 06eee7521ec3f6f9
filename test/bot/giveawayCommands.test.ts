import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandInteraction } from '../../process/infra/fakeDiscord/index.js';
import { useTestDatabase } from '../harness/database.js';
import { discordPlatformOn } from '../harness/discordGuild.js';
import { eventually } from '../harness/eventually.js';
import { startStoppableWorker, testGateway } from '../harness/temporal.js';
import { startCommandBed, type CommandBed } from './commandBed.js';
import { buttonPress } from './payloads.js';
import { auditActorsOf } from '../harness/rows.js';

// /giveaway start, end and reroll on Discord: the API's giveaway use cases asked by the invoker (the host), the
// giveaway's workflow on a real worker posting on the fake Discord, and its end and reroll updates sent by the bot's
// own Temporal client. The giveaway workflow runs on Temporal's clock, so the bot's fixed clock is set to the moment
// the file starts (the two must agree for a giveaway that starts now); nothing depends on which day that is.

const NOW = new Date(Math.floor(Date.now() / 1000) * 1000);
const database = useTestDatabase();
const db = () => database.db;
const gateway = testGateway();
let t: CommandBed;
let worker: { stop(): Promise<void> } | undefined;
let host: string;

beforeAll(async () => {
  t = await startCommandBed(database, NOW, ['giveaways'], { temporal: gateway });
  worker = await startStoppableWorker(db(), gateway, discordPlatformOn(t.bed.fake));
  host = t.member([t.server.roles.staff]);
});
afterAll(async () => {
  await worker?.stop();
  await t?.bed.close();
  await gateway.client.connection.close();
});

const giveaways = () => db().selectFrom('giveaways').select(['id', 'status', 'prize', 'host_id', 'channel_id', 'winners_count', 'winner_ids']).where('guild_id', '=', t.server.id).orderBy('id').execute();

async function started(prize: string, winners: number): Promise<number> {
  const text = await t.answer({ userId: host, name: 'giveaway', subcommand: 'start', options: { channel: t.server.channels.general, prize, duration: '1d', winners } });
  const g = (await giveaways()).at(-1)!;
  expect(text).toBe(`Giveaway #${g.id} for **${prize}** is being posted in <#${t.server.channels.general}>: ${winners} winners, drawn <t:${NOW.getTime() / 1000 + 86_400}:R>.`);
  await eventually(giveaways, (rows) => rows.find((r) => r.id === g.id)?.status === 'active');
  return g.id;
}

async function enter(giveawayId: number): Promise<string> {
  const user = t.member([t.server.roles.member]);
  await t.bed.dispatch('INTERACTION_CREATE', buttonPress(t.bed.fake.state.bot.id, `giveaway:enter:${giveawayId}`, user, { guildId: t.server.id, channelId: t.server.channels.general }, t.bed.clock.now()));
  return user;
}

describe('/giveaway', () => {
  it('start posts the giveaway hosted by the invoker; end draws it; reroll draws anew', async () => {
    const id = await started('Nitro', 2);
    expect((await giveaways()).find((g) => g.id === id)).toMatchObject({ prize: 'Nitro', host_id: host, channel_id: t.server.channels.general, winners_count: 2 });
    const posted = [...t.bed.fake.state.messages.values()].filter((m) => m.channel_id === t.server.channels.general);
    expect(posted.length).toBeGreaterThan(0);
    const entrants = [await enter(id), await enter(id), await enter(id)];

    expect(await t.suggestions({ userId: host, name: 'giveaway', subcommand: 'end', options: { giveaway: 'nit' }, focused: 'giveaway' })).toContainEqual({ name: `#${id} Nitro`, value: String(id) });
    const ended = await t.answer({ userId: host, name: 'giveaway', subcommand: 'end', options: { giveaway: String(id) } });
    const afterEnd = (await giveaways()).find((g) => g.id === id)!;
    expect(afterEnd.status).toBe('ended');
    expect(afterEnd.winner_ids).toHaveLength(2);
    expect(entrants).toEqual(expect.arrayContaining(afterEnd.winner_ids));
    expect(ended).toBe(`Ended giveaway #${id} (**Nitro**): won by ${afterEnd.winner_ids.map((w) => `<@${w}>`).join(', ')}.`);

    expect(await t.suggestions({ userId: host, name: 'giveaway', subcommand: 'reroll', options: { giveaway: '' }, focused: 'giveaway' })).toContainEqual({ name: `#${id} Nitro`, value: String(id) });
    const third = entrants.find((e) => !afterEnd.winner_ids.includes(e))!;
    const rerolled = await t.answer({ userId: host, name: 'giveaway', subcommand: 'reroll', options: { giveaway: `#${id}`, count: 1 } });
    expect(rerolled).toBe(`Rerolled giveaway #${id} (**Nitro**): <@${third}> won in place of ${afterEnd.winner_ids.map((w) => `<@${w}>`).join(', ')}.`);
    expect((await giveaways()).find((g) => g.id === id)!.winner_ids).toEqual([third]);

    expect(await t.answer({ userId: host, name: 'giveaway', subcommand: 'end', options: { giveaway: String(id) } })).toBe('The giveaway is ended; only an active giveaway can be ended.');
    // Each step in the audit log names the member who used the command.
    for (const action of ['giveaways.start', 'giveaways.end', 'giveaways.reroll']) {
      expect((await auditActorsOf(db(), t.server.id, action)).at(-1), action).toEqual({ actor_type: 'member', actor_id: host });
    }
  });

  it('refuses in words: an unknown giveaway, a duration out of bounds, a member without Manage Server (even when opened to everyone)', async () => {
    expect(await t.answer({ userId: host, name: 'giveaway', subcommand: 'end', options: { giveaway: '#999999' } })).toBe('There is no such giveaway in this server.');
    const before = await giveaways();
    expect(await t.answer({ userId: host, name: 'giveaway', subcommand: 'start', options: { channel: t.server.channels.general, prize: 'Cake', duration: '61d' } })).toBe(
      'A giveaway lasts 1 minute to 60 days.',
    );
    const member = t.member([t.server.roles.member]);
    const use = { userId: member, name: 'giveaway', subcommand: 'start', options: { channel: t.server.channels.general, prize: 'Cake', duration: '1d' } };
    expect(() => commandInteraction(t.bed.fake.state, { ...use, guildId: t.server.id })).toThrow(/Discord hides "giveaway"/);
    expect(await t.answer({ ...use, permissionsOverridden: true })).toBe('You need the Manage Server permission to use this command.');
    expect(await giveaways()).toEqual(before);
  });

  it("Discord's client offers only text and announcement channels for the giveaway's channel, and a prize of at most 200 characters", () => {
    expect(() =>
      commandInteraction(t.bed.fake.state, { guildId: t.server.id, userId: host, name: 'giveaway', subcommand: 'start', options: { channel: t.server.channels.category, prize: 'x', duration: '1d' } }),
    ).toThrow(/only channels of types 0, 5/);
    expect(() =>
      commandInteraction(t.bed.fake.state, { guildId: t.server.id, userId: host, name: 'giveaway', subcommand: 'start', options: { channel: t.server.channels.general, prize: 'x'.repeat(201), duration: '1d' } }),
    ).toThrow(/takes 1 to 200 characters for "prize"/);
  });

  it('with Giveaways off answers so and starts nothing', async () => {
    const before = await giveaways();
    await t.setFeatures([]);
    try {
      expect(await t.answer({ userId: host, name: 'giveaway', subcommand: 'start', options: { channel: t.server.channels.general, prize: 'Cake', duration: '1d' } })).toBe(
        'Giveaways is turned off on this server.',
      );
    } finally {
      await t.setFeatures(['giveaways']);
    }
    expect(await giveaways()).toEqual(before);
  });
});

describe('a bot without Temporal (TEMPORAL_ADDRESS unset)', () => {
  let bare: CommandBed;
  let staff: string;
  beforeAll(async () => {
    bare = await startCommandBed(database, NOW, ['giveaways', 'moderation'], { temporal: undefined, modActionWaitMs: 300 });
    staff = bare.member([bare.server.roles.staff]);
  });
  afterAll(() => bare?.bed.close());

  it('starts a giveaway all the same (the worker\'s start relay starts its workflow) and answers an end in words', async () => {
    const text = await bare.answer({ userId: staff, name: 'giveaway', subcommand: 'start', options: { channel: bare.server.channels.general, prize: 'Poster', duration: '2h', winners: 1 } });
    const row = await db().selectFrom('giveaways').select(['id', 'status', 'workflow_started_at']).where('guild_id', '=', bare.server.id).executeTakeFirstOrThrow();
    expect(text).toBe(`Giveaway #${row.id} for **Poster** is being posted in <#${bare.server.channels.general}>: 1 winner, drawn <t:${NOW.getTime() / 1000 + 7_200}:R>.`);
    expect(row).toMatchObject({ status: 'scheduled', workflow_started_at: null });
    await db().updateTable('giveaways').set({ status: 'active' }).where('guild_id', '=', bare.server.id).execute();
    expect(await bare.answer({ userId: staff, name: 'giveaway', subcommand: 'end', options: { giveaway: String(row.id) } })).toBe(
      'The giveaway cannot be ended from Discord right now; try again in a minute.',
    );
    expect(await db().selectFrom('giveaways').select('status').where('guild_id', '=', bare.server.id).executeTakeFirstOrThrow()).toEqual({ status: 'active' });
  });

  it('records a moderation action for the relay and says it is on its way', async () => {
    const target = bare.member([bare.server.roles.member]);
    expect(await bare.answer({ userId: staff, name: 'warn', options: { member: target, reason: 'Later' } })).toBe(
      `The warn of <@${target}> is on its way; its case will show in the mod log and in \`/case\` shortly.`,
    );
    const action = await db().selectFrom('moderation_actions').select(['status', 'moderator_id', 'source', 'workflow_started_at']).where('guild_id', '=', bare.server.id).executeTakeFirstOrThrow();
    expect(action).toEqual({ status: 'pending', moderator_id: staff, source: 'command', workflow_started_at: null });
  });
});
