import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveLevelSettings } from '../../db/levels/members.js';
import { fixedClock } from '../../src/core/clock.js';
import { levelUpEffectsWorkflowId } from '../../src/levels/ids.js';
import { relayLevelUpEffects } from '../../src/levels/levelUpEffectsOperation.js';
import { useTestDatabase } from '../harness/database.js';
import { createDiscordGuild, discordPlatformOn, type DiscordGuild } from '../harness/discordGuild.js';
import { startStoppableWorker, testGateway } from '../harness/temporal.js';
import { startBotBed, type BotBed } from './botHarness.js';
import { memberMessage } from './payloads.js';

// A level reached by writing, through the real bot, the worker and the fake Discord: the bot records the level-up
// with the message's channel, the worker's workflow announces it where the level settings say, as a card pinging
// the member only: the channel they wrote in (`current`), the announcement channel, their DMs.

const NOW = new Date('2026-11-29T12:00:00Z');
const database = useTestDatabase();
const gateway = testGateway();
let bed: BotBed;
let worker: { stop(): Promise<void> };
let guild: DiscordGuild;

beforeAll(async () => {
  bed = await startBotBed(database, NOW);
  worker = await startStoppableWorker(database.db, gateway, discordPlatformOn(bed.fake));
  guild = await createDiscordGuild(database.db, bed.fake);
});
afterAll(async () => {
  await worker?.stop();
  await gateway.client.connection.close();
  await bed?.close();
});

const settle = (announceTo: 'channel' | 'current' | 'dm' | 'off') =>
  saveLevelSettings(database.db, guild.id, {
    announceTo,
    announceChannelId: guild.channels.log,
    announceTemplate: '{user} reached level {level} @everyone',
    removePreviousRewards: false,
    messageCooldownSeconds: 0,
  });

/**
 * Five messages in #general (100 XP: level 1), each its own id and second; then the worker's start relay (on a
 * clock an hour on) starts the level-up's workflow, which is awaited.
 */
async function writeToLevelOne(userId: string) {
  for (let n = 0; n < 5; n += 1) {
    await bed.dispatch('MESSAGE_CREATE', memberMessage(guild.id, userId, new Date(NOW.getTime() + n * 1000), { channel_id: guild.channels.general }));
  }
  expect(await relayLevelUpEffects({ db: database.db, temporal: gateway, clock: fixedClock(new Date(NOW.getTime() + 3_600_000)) })).toBe(1);
  const { event_id } = await database.db
    .selectFrom('level_up_effects')
    .select('event_id')
    .where('guild_id', '=', guild.id)
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  expect(await gateway.client.workflow.getHandle(levelUpEffectsWorkflowId(guild.id, event_id)).result()).toEqual({ refused: [] });
}

const cardsIn = (channelId: string | undefined) =>
  [...bed.fake.state.messages.values()]
    .filter((m) => m.channel_id === channelId)
    .map((m) => ({ content: m.content, card: m.embeds[0]?.description, pinged: m.mentions.map((u) => u.id), everyone: m.mention_everyone }));

describe('the level-up announcement on Discord', () => {
  it("current: in the channel the member wrote in, pinging them and never @everyone from the message's text", async () => {
    await settle('current');
    const user = guild.addMember();
    await writeToLevelOne(user);
    const [card, ...more] = cardsIn(guild.channels.general);
    expect(more).toEqual([]);
    expect(card).toEqual({ content: `<@${user}>`, card: `<@${user}> reached level 1 @everyone`, pinged: [user], everyone: false });
    expect(cardsIn(guild.channels.log)).toEqual([]);
  });

  it('channel: in the announcement channel, wherever the member wrote', async () => {
    await settle('channel');
    const user = guild.addMember();
    const before = cardsIn(guild.channels.log).length;
    await writeToLevelOne(user);
    const cards = cardsIn(guild.channels.log);
    expect(cards).toHaveLength(before + 1);
    expect(cards.at(-1)).toMatchObject({ content: `<@${user}>`, pinged: [user] });
  });

  it('dm: the card in their DMs, nothing in the server; off: nothing at all', async () => {
    await settle('dm');
    const user = guild.addMember();
    const inServer = () => cardsIn(guild.channels.general).length + cardsIn(guild.channels.log).length;
    const before = inServer();
    await writeToLevelOne(user);
    const [dm, ...moreDms] = cardsIn(bed.fake.state.dmChannels.get(user));
    expect(moreDms).toEqual([]);
    expect(dm).toMatchObject({ content: '', card: `<@${user}> reached level 1 @everyone`, pinged: [] });
    expect(inServer()).toBe(before);

    await settle('off');
    const quiet = guild.addMember();
    await writeToLevelOne(quiet);
    expect(inServer()).toBe(before);
    expect(bed.fake.state.dmChannels.get(quiet)).toBeUndefined();
  });
});
