import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GIVEAWAY_SETTINGS } from '../../db/giveaways/settings.js';
import { createGiveawaysActivities } from '../../activities/giveaways.js';
import { fixedClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { GiveawayStartRequest } from '../../src/giveaways/contract.js';
import { createGiveaway } from '../../src/giveaways/createGiveaway.js';
import { useTestDatabase } from '../harness/database.js';
import { discordPlatformOn } from '../harness/discordGuild.js';
import { testGateway } from '../harness/temporal.js';
import { userIdAged } from '../api/giveaways/giveawayBed.js';
import { startBotBedOnServer, type BotBed } from './botHarness.js';
import type { FakeServer } from './fakeServer.js';
import { buttonPress } from './payloads.js';

// The giveaway's message as the worker posts it on Discord carries the enter button, and the custom_id on it is the
// one the bot takes: pressing the posted button enters. The ended message loses its button.

const NOW = new Date('2026-11-25T12:00:00Z');
const database = useTestDatabase();
let bed: BotBed;
let s: FakeServer;

beforeAll(async () => {
  ({ bed, server: s } = await startBotBedOnServer(database, NOW, ['giveaways']));
});
afterAll(() => bed?.close());

type Components = Array<{ type: number; components: Array<{ type: number; style: number; custom_id: string; label: string }> }>;

describe("the giveaway message's enter button", () => {
  it('is posted with the message, enters the member who presses it, and is taken away by the end edit', async () => {
    const body = GiveawayStartRequest.parse({ channelId: s.channels.general, prize: 'Nitro', durationSeconds: 600 });
    const giveaway = await database.db
      .transaction()
      .execute((trx) => createGiveaway(trx, { guildId: s.id, body, defaultHostId: s.ownerId, settings: DEFAULT_GIVEAWAY_SETTINGS, at: NOW, actor: { type: 'system' } }));
    const activities = createGiveawaysActivities({
      db: database.db,
      platform: discordPlatformOn(bed.fake),
      clock: fixedClock(NOW),
      logger: createLogger('silent', 'giveaway-button-test'),
      temporal: testGateway(),
      webhooks: { allowInsecureLocal: true },
    });

    expect(await activities.activateGiveaway(s.id, giveaway.id)).toBe('active');
    const post = bed.fake.requests.find((r) => r.method === 'POST' && r.path === `/channels/${s.channels.general}/messages`);
    const components = post!.body!.components as Components;
    expect(components).toEqual([{ type: 1, components: [{ type: 2, style: 1, custom_id: `giveaway:enter:${giveaway.id}`, label: 'Enter' }] }]);

    const user = userIdAged(NOW, 400);
    await bed.dispatch('INTERACTION_CREATE', buttonPress(bed.fake.state.bot.id, components[0]!.components[0]!.custom_id, user, { guildId: s.id, channelId: s.channels.general }));
    const entries = await database.db.selectFrom('giveaway_entries').select('user_id').where('guild_id', '=', s.id).where('giveaway_id', '=', giveaway.id).execute();
    expect(entries).toEqual([{ user_id: user }]);

    await activities.editGiveawayMessage(s.id, giveaway.id, null);
    const edit = bed.fake.requests.find((r) => r.method === 'PATCH' && r.path.startsWith(`/channels/${s.channels.general}/messages/`));
    expect(edit!.body!.components).toEqual([]);
  });
});
