import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GIVEAWAY_SETTINGS } from '../../db/giveaways/settings.js';
import { GiveawayStartRequest } from '../../src/giveaways/contract.js';
import { createGiveaway } from '../../src/giveaways/createGiveaway.js';
import { giveawayEnterButtonId } from '../../src/giveaways/giveawayButtons.js';
import { ticketPanelButtonId } from '../../src/tickets/panelButtons.js';
import { ANSWER_WITHIN_MS } from '../../process/bot/botDeps.js';
import { FAILED_ANSWER } from '../../process/bot/interactions/answerInteraction.js';
import { UNKNOWN_BUTTON_ANSWER } from '../../process/bot/handlers/interactionCreate.js';
import { addGuild, type FakeInteractionAnswer } from '../../process/infra/fakeDiscord/index.js';
import { useTestDatabase } from '../harness/database.js';
import { eventually } from '../harness/eventually.js';
import { createTestGuild, snowflake, type TestGuild } from '../harness/fixtures.js';
import { userIdAged } from '../api/giveaways/giveawayBed.js';
import { startBotBed, type BotBed } from './botHarness.js';
import { serverWithBot } from './fakeServer.js';
import { buttonPress, ephemeralAnswer } from './payloads.js';

// INTERACTION_CREATE through the real bot, the fake gateway and the fake's interaction endpoints: a giveaway's enter
// button and a ticket panel's button, each acknowledged within Discord's 3 s and answered to the member alone.

const NOW = new Date('2026-11-25T12:00:00Z');
const ACK_LIMIT_MS = 3_000;
const EPHEMERAL = 64;
const BOT_APPLICATION_ID = '1000000000000000001';
const database = useTestDatabase();
let guild: TestGuild;

beforeAll(async () => {
  guild = await createTestGuild(database.db);
});

async function activeGiveaway(requirements: Record<string, unknown> = {}): Promise<number> {
  const body = GiveawayStartRequest.parse({ channelId: snowflake(), prize: 'Nitro', durationSeconds: 600, requirements });
  const g = await database.db
    .transaction()
    .execute((trx) => createGiveaway(trx, { guildId: guild.id, body, defaultHostId: guild.ownerId, settings: DEFAULT_GIVEAWAY_SETTINGS, at: NOW, actor: { type: 'system' } }));
  await database.db.updateTable('giveaways').set({ status: 'active' }).where('guild_id', '=', guild.id).where('id', '=', g.id).execute();
  return g.id;
}

/** A button press as Discord sends it in the test's server. */
const press = (customId: string, userId: string) => buttonPress(BOT_APPLICATION_ID, customId, userId, { guildId: guild.id });
const entriesOf = (giveawayId: number) =>
  database.db.selectFrom('giveaway_entries').select(['user_id', 'tickets']).where('guild_id', '=', guild.id).where('giveaway_id', '=', giveawayId).execute();

/** Sends the press and waits until the bot handled it; returns when it left the fake gateway, on the fake's clock. */
async function sendPress(bed: BotBed, payload: ReturnType<typeof press>): Promise<number> {
  const dispatchedAt = Date.now();
  await bed.dispatch('INTERACTION_CREATE', payload);
  return dispatchedAt;
}

const ackWithinLimit = (answer: FakeInteractionAnswer | undefined, dispatchedAt: number) => {
  expect(answer).toBeDefined();
  expect(answer!.at - dispatchedAt).toBeGreaterThanOrEqual(0);
  expect(answer!.at - dispatchedAt).toBeLessThan(ACK_LIMIT_MS);
};

describe('answered directly (the work done within the answer budget)', () => {
  let bed: BotBed;
  beforeAll(async () => {
    bed = await startBotBed(database, NOW);
    // The server on Discord, where a ticket's channel is created.
    addGuild(bed.fake.state, serverWithBot(bed.fake, guild, 'Test Guild'));
  });
  afterAll(() => bed?.close());

  it('enters the giveaway and answers the member alone, within 3 s of the dispatch', async () => {
    const giveawayId = await activeGiveaway();
    const user = userIdAged(NOW, 400);
    const payload = press(giveawayEnterButtonId(giveawayId), user);
    const dispatchedAt = await sendPress(bed, payload);

    expect(await entriesOf(giveawayId)).toEqual([{ user_id: user, tickets: 1 }]);
    const answers = bed.answersTo(payload.token);
    expect(answers.map((a) => [a.kind, a.id, a.body])).toEqual([
      ['callback', payload.id, ephemeralAnswer('You entered the giveaway with 1 entry. Good luck!')],
    ]);
    ackWithinLimit(answers[0], dispatchedAt);
    // The interaction endpoints take the interaction's token, not the bot's.
    const callback = bed.fake.requests.find((r) => r.path === `/interactions/${payload.id}/${payload.token}/callback`);
    expect(callback?.headers.authorization).toBeUndefined();
  });

  it('takes no second entry on a second press and says so; a replayed dispatch is neither acted on nor answered again', async () => {
    const giveawayId = await activeGiveaway();
    const user = userIdAged(NOW, 400);
    const first = press(giveawayEnterButtonId(giveawayId), user);
    await sendPress(bed, first);
    const second = press(giveawayEnterButtonId(giveawayId), user);
    await sendPress(bed, second);
    await sendPress(bed, first);

    expect(await entriesOf(giveawayId)).toEqual([{ user_id: user, tickets: 1 }]);
    expect(bed.answersTo(second.token).map((a) => (a.body as { data: { content: string } }).data.content)).toEqual(['You have already entered this giveaway. Good luck!']);
    expect(bed.answersTo(first.token)).toHaveLength(1);
  });

  it.each([
    ['an account younger than the requirement', { minAccountAgeDays: 30 }, 'You cannot enter this giveaway: The account must be at least 30 days old.'],
    ['a giveaway that is not active', null, 'This giveaway is not taking entries right now.'],
  ])('refuses %s with a clear answer and stores nothing', async (_, requirements, content) => {
    const giveawayId = await activeGiveaway(requirements ?? {});
    if (requirements === null) await database.db.updateTable('giveaways').set({ status: 'ended' }).where('guild_id', '=', guild.id).where('id', '=', giveawayId).execute();
    const payload = press(giveawayEnterButtonId(giveawayId), userIdAged(NOW, 3));
    await sendPress(bed, payload);

    expect(await entriesOf(giveawayId)).toEqual([]);
    expect(bed.answersTo(payload.token).map((a) => a.body)).toEqual([ephemeralAnswer(content)]);
  });

  it('opens a ticket from a panel button with its channel, and tickets.opened names that channel; a second press names that ticket and opens none', async () => {
    const panelId = 7;
    const user = snowflake();
    const ticketEvents = async () =>
      (await database.db.selectFrom('events').select('data').where('guild_id', '=', guild.id).where('type', '=', 'tickets.opened').execute())
        .map((e) => e.data as { userId: string; ticketNo: number; panelId: number; source: string; channelId: string | null; openedAt: string })
        .filter((e) => e.userId === user);
    const first = press(ticketPanelButtonId(panelId), user);
    const dispatchedAt = await sendPress(bed, first);
    const [opened] = await ticketEvents();
    const { channel_id: channelId } = await database.db
      .selectFrom('tickets')
      .select('channel_id')
      .where('guild_id', '=', guild.id)
      .where('ticket_no', '=', opened!.ticketNo)
      .executeTakeFirstOrThrow();
    expect(channelId).toMatch(/^\d+$/);
    expect(opened).toMatchObject({ userId: user, panelId, source: 'panel', channelId, openedAt: NOW.toISOString() });
    const answer = bed.answersTo(first.token);
    expect(answer.map((a) => (a.body as { data: unknown }).data)).toEqual([
      { content: `Ticket #${opened!.ticketNo} is open in <#${channelId}>. Staff will be with you shortly.`, flags: EPHEMERAL, allowed_mentions: { parse: [] } },
    ]);
    ackWithinLimit(answer[0], dispatchedAt);

    const second = press(ticketPanelButtonId(panelId), user);
    await sendPress(bed, second);
    expect(await ticketEvents()).toHaveLength(1);
    expect(bed.answersTo(second.token).map((a) => (a.body as { data: { content: string } }).data.content)).toEqual([
      `You already have ticket #${opened!.ticketNo} open from this panel: <#${channelId}>.`,
    ]);
  });

  it('defers at the answer budget when the work is held up, within 3 s, then edits the answer in once the work is done', async () => {
    const giveawayId = await activeGiveaway();
    const user = userIdAged(NOW, 400);
    const payload = press(giveawayEnterButtonId(giveawayId), user);
    let dispatchedAt = 0;
    let handled: Promise<number> | undefined;
    // The entry waits on the giveaway's row, locked here until the bot has deferred its answer.
    await database.db.transaction().execute(async (trx) => {
      await trx.selectFrom('giveaways').select('id').where('guild_id', '=', guild.id).where('id', '=', giveawayId).forUpdate().execute();
      dispatchedAt = Date.now();
      handled = bed.dispatch('INTERACTION_CREATE', payload);
      await eventually(async () => bed.answersTo(payload.token).length, (n) => n > 0);
    });
    await handled;

    const answers = bed.answersTo(payload.token);
    expect(answers.map((a) => [a.kind, a.body])).toEqual([
      ['callback', { type: 5, data: { flags: EPHEMERAL } }],
      ['edit', { content: 'You entered the giveaway with 1 entry. Good luck!', allowed_mentions: { parse: [] } }],
    ]);
    ackWithinLimit(answers[0], dispatchedAt);
    expect(answers[0]!.at - dispatchedAt).toBeGreaterThanOrEqual(ANSWER_WITHIN_MS);
    expect(await entriesOf(giveawayId)).toEqual([{ user_id: user, tickets: 1 }]);
  });

  it('answers a button it does not know (an old message) instead of leaving the press to fail', async () => {
    const payload = press('poll:vote:3', snowflake());
    await sendPress(bed, payload);
    expect(bed.answersTo(payload.token).map((a) => (a.body as { data: { content: string } }).data.content)).toEqual([UNKNOWN_BUTTON_ANSWER]);
  });
});

describe('deferred (the work outlasts the answer budget)', () => {
  let bed: BotBed;
  beforeAll(async () => {
    bed = await startBotBed(database, NOW, {}, {}, { answerWithinMs: 0 });
  });
  afterAll(() => bed?.close());

  it('acknowledges with an ephemeral deferral within 3 s, then edits the original response with the outcome', async () => {
    const giveawayId = await activeGiveaway();
    const user = userIdAged(NOW, 400);
    const payload = press(giveawayEnterButtonId(giveawayId), user);
    const dispatchedAt = await sendPress(bed, payload);

    expect(await entriesOf(giveawayId)).toEqual([{ user_id: user, tickets: 1 }]);
    const answers = bed.answersTo(payload.token);
    expect(answers.map((a) => [a.kind, a.id, a.body])).toEqual([
      ['callback', payload.id, { type: 5, data: { flags: EPHEMERAL } }],
      ['edit', payload.application_id, { content: 'You entered the giveaway with 1 entry. Good luck!', allowed_mentions: { parse: [] } }],
    ]);
    ackWithinLimit(answers[0], dispatchedAt);
  });

  it('answers the member when the work fails on our side, and the failure is not swallowed', async () => {
    const giveawayId = await activeGiveaway();
    const payload = press(giveawayEnterButtonId(giveawayId), userIdAged(NOW, 400));
    await database.db.schema.alterTable('giveaway_entries').renameTo('giveaway_entries_away').execute();
    try {
      await sendPress(bed, payload);
    } finally {
      await database.db.schema.alterTable('giveaway_entries_away').renameTo('giveaway_entries').execute();
    }
    expect(bed.answersTo(payload.token).map((a) => [a.kind, a.body])).toEqual([
      ['callback', { type: 5, data: { flags: EPHEMERAL } }],
      ['edit', { content: FAILED_ANSWER, allowed_mentions: { parse: [] } }],
    ]);
    expect(await entriesOf(giveawayId)).toEqual([]);
  });
});
