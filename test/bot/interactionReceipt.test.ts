import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GIVEAWAY_SETTINGS } from '../../db/giveaways/settings.js';
import { isInteractionHandled } from '../../db/platform/interactions.js';
import { interactionsTooOld } from '../../process/bot/botMetrics.js';
import { DISPATCH_TABLE } from '../../process/bot/dispatchTable.js';
import type { DispatchHandler } from '../../process/bot/handler.js';
import { UNKNOWN_BUTTON_ANSWER } from '../../process/bot/handlers/interactionCreate.js';
import { attachFakeGateway, startFakeDiscord, type FakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { GiveawayStartRequest } from '../../src/giveaways/contract.js';
import { createGiveaway } from '../../src/giveaways/createGiveaway.js';
import { giveawayEnterButtonId } from '../../src/giveaways/giveawayButtons.js';
import { useTestDatabase } from '../harness/database.js';
import { createTestGuild, snowflake, type TestGuild } from '../harness/fixtures.js';
import { startBotBed, type BotBed } from './botHarness.js';
import { buttonPress, ephemeralAnswer, INTERACTION_AT } from './payloads.js';
import { identifyRaw } from './rawGateway.js';

// Interactions answered from receipt: Discord wants the first answer within 3 s of the interaction's creation (its
// snowflake time). They have slots of their own, never behind servers' backlogs; one already too old when its turn
// comes is not acted on, and is logged and counted. The fake refuses a callback past its 3 s with 10062.

const NOW = INTERACTION_AT;
const BOT_APPLICATION_ID = '1000000000000000001';
const database = useTestDatabase();
let guild: TestGuild;
let bed: BotBed;
/** Each BUSY dispatch holds its server's lane (and the bot's only server slot) until the test lets it go. */
let release: () => void = () => undefined;
const held = new Promise<void>((resolve) => (release = resolve));
const busy: DispatchHandler = async () => held;

beforeAll(async () => {
  guild = await createTestGuild(database.db, { features: ['giveaways'] });
  bed = await startBotBed(database, NOW, {}, { handlers: { ...DISPATCH_TABLE, BUSY: busy }, concurrency: 1 });
});
afterAll(async () => {
  release();
  await bed?.close();
});

const press = (customId: string, at?: Date) => buttonPress(BOT_APPLICATION_ID, customId, snowflake(), { guildId: guild.id }, at);
const tooOldCount = async () => (await interactionsTooOld.get()).values[0]?.value ?? 0;

describe('interactions answered from receipt', () => {
  it("answers an interaction at once while every server slot is held by another server's backlog", async () => {
    for (let n = 0; n < 20; n += 1) bed.gateway.dispatch('BUSY', { guild_id: snowflake(), n });
    const payload = press('not-a-known-button');
    const sentAt = bed.fake.state.now();
    await bed.dispatch('INTERACTION_CREATE', payload);

    const [answer] = bed.answersTo(payload.token);
    expect(answer?.body).toEqual(ephemeralAnswer(UNKNOWN_BUTTON_ANSWER));
    expect(answer!.at - sentAt).toBeLessThan(3_000);
    // The backlog is still there: the interaction went past it.
    expect(bed.bot.queued()).toBeGreaterThanOrEqual(20);
  });

  it('does not act on an interaction already past 2.5 s old, answers nothing, and counts it', async () => {
    const body = GiveawayStartRequest.parse({ channelId: snowflake(), prize: 'Nitro', durationSeconds: 600 });
    const g = await database.db
      .transaction()
      .execute((trx) => createGiveaway(trx, { guildId: guild.id, body, defaultHostId: guild.ownerId, settings: DEFAULT_GIVEAWAY_SETTINGS, at: NOW, actor: { type: 'system' } }));
    await database.db.updateTable('giveaways').set({ status: 'active' }).where('guild_id', '=', guild.id).where('id', '=', g.id).execute();
    const before = await tooOldCount();

    const payload = press(giveawayEnterButtonId(g.id), new Date(NOW.getTime() - 2_600));
    await bed.dispatch('INTERACTION_CREATE', payload);

    expect(await tooOldCount()).toBe(before + 1);
    expect(bed.answersTo(payload.token)).toEqual([]);
    expect(await database.db.selectFrom('giveaway_entries').selectAll().where('guild_id', '=', guild.id).execute()).toEqual([]);
    expect(await isInteractionHandled(database.db, payload.id)).toBe(false);

    // The same press 2 s old is still acted on: past the 1.5 s answer budget counted from its creation, it is
    // deferred at once, then answered by an edit.
    const inTime = press(giveawayEnterButtonId(g.id), new Date(NOW.getTime() - 2_000));
    await bed.dispatch('INTERACTION_CREATE', inTime);
    expect(await tooOldCount()).toBe(before + 1);
    expect(bed.answersTo(inTime.token).map((a) => [a.kind, a.kind === 'callback' ? a.body?.type : 'edit'])).toEqual([
      ['callback', 5],
      ['edit', 'edit'],
    ]);
    expect(await database.db.selectFrom('giveaway_entries').select('user_id').where('guild_id', '=', guild.id).execute()).toHaveLength(1);
  });
});

describe("the fake's interaction tokens", () => {
  let fake: FakeDiscord;
  let clock = Date.UTC(2026, 10, 25, 12);
  afterAll(() => fake?.close());

  it('refuses a callback past 3 s with 10062 Unknown interaction, and an edit past 15 minutes with 50027', async () => {
    fake = await startFakeDiscord({ now: () => clock });
    const gateway = attachFakeGateway(fake);
    await identifyRaw(gateway.url, fake.token, [0, 1]);
    const post = (i: { id: string; token: string }) =>
      fetch(`${fake.apiUrl}/v10/interactions/${i.id}/${i.token}/callback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 5 }) });
    const edit = (i: { token: string }) =>
      fetch(`${fake.apiUrl}/v10/webhooks/${BOT_APPLICATION_ID}/${i.token}/messages/@original`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ content: 'done' }) });

    const late = { id: '1', token: 'late-token' };
    gateway.dispatch('INTERACTION_CREATE', late);
    clock += 3_001;
    const refused = await post(late);
    expect([refused.status, await refused.json()]).toEqual([404, { message: 'Unknown interaction', code: 10062 }]);
    expect(fake.state.interactionAnswers).toEqual([]);

    // Never sent by the gateway: unknown too.
    expect((await post({ id: '2', token: 'made-up' })).status).toBe(404);

    const ontime = { id: '3', token: 'ontime-token' };
    gateway.dispatch('INTERACTION_CREATE', ontime);
    clock += 2_999;
    expect((await post(ontime)).status).toBe(204);
    clock += 15 * 60_000 - 2_999 - 1;
    expect((await edit(ontime)).status).toBe(200);
    clock += 2;
    const expired = await edit(ontime);
    expect([expired.status, await expired.json()]).toEqual([401, { message: 'Invalid Webhook Token', code: 50027 }]);
    expect(fake.state.interactionAnswers.map((a) => a.kind)).toEqual(['callback', 'edit']);
  });
});
