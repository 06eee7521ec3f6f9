import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addLevelReward, saveLevelSettings } from '../../db/levels/members.js';
import { missingPermissions, serverError } from '../../process/infra/fakeDiscord/index.js';
import { fixedClock } from '../../src/core/clock.js';
import { launchOperation } from '../../src/core/temporal/operation.js';
import { levelUpEffectsWorkflowId } from '../../src/levels/ids.js';
import { levelUpEffectsOperation, relayLevelUpEffects } from '../../src/levels/levelUpEffectsOperation.js';
import { useTestDatabase } from '../harness/database.js';
import { createDiscordGuild, discordPlatformOn, type DiscordGuild } from '../harness/discordGuild.js';
import { startStoppableWorker, testGateway } from '../harness/temporal.js';
import { startBotBed, type BotBed } from './botHarness.js';
import { memberMessage } from './payloads.js';

// A level reached from a member's message gets its reward role and announcement durably: the bot records them with
// the XP, the worker's start relay starts workflow level-up/<guild>/<event>, whose activity is retried while Discord
// fails and applies them once; a replayed MESSAGE_CREATE adds nothing.

const NOW = new Date('2026-11-25T12:00:00Z');
const COOLDOWN_SECONDS = 60;
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
const database = useTestDatabase();
const gateway = testGateway();
// The worker's relay runs on its own clock, an hour past the messages' time.
const relay = () => relayLevelUpEffects({ db: database.db, temporal: gateway, clock: fixedClock(later(3600)) });
let bed: BotBed;
let worker: { stop(): Promise<void> };

beforeAll(async () => {
  bed = await startBotBed(database, NOW);
  worker = await startStoppableWorker(database.db, gateway, discordPlatformOn(bed.fake));
});
afterAll(async () => {
  await worker?.stop();
  await gateway.client.connection.close();
  await bed?.close();
});

async function levelsGuild(): Promise<DiscordGuild> {
  const g = await createDiscordGuild(database.db, bed.fake);
  await saveLevelSettings(database.db, g.id, { announceChannelId: g.channels.general, announceTemplate: '{user} reached level {level}', removePreviousRewards: false, messageCooldownSeconds: COOLDOWN_SECONDS });
  await addLevelReward(database.db, g.id, { level: 1, roleId: g.roles.reward });
  return g;
}

/** Level 1 takes 100 XP: five messages, each past the cooldown; the last one (returned) reaches it. */
async function levelUpByMessages(g: DiscordGuild, userId: string) {
  for (let n = 0; n < 4; n += 1) await bed.dispatch('MESSAGE_CREATE', memberMessage(g.id, userId, later(n * COOLDOWN_SECONDS)));
  const last = memberMessage(g.id, userId, later(4 * COOLDOWN_SECONDS));
  await bed.dispatch('MESSAGE_CREATE', last);
  return last;
}

const effectsOf = (guildId: string) =>
  database.db
    .selectFrom('level_up_effects')
    .select(['event_id', 'user_id', 'previous_level', 'level', 'channel_id', 'applied_at', 'refused'])
    .where('guild_id', '=', guildId)
    .execute();
const rolePuts = (g: DiscordGuild, userId: string) =>
  bed.fake.requests.filter((r) => r.method === 'PUT' && r.path === `/guilds/${g.id}/members/${userId}/roles/${g.roles.reward}`).map((r) => r.status);
// The announcement's card (its content is the member's mention, the ping).
const announcements = (g: DiscordGuild) => [...bed.fake.state.messages.values()].filter((m) => m.channel_id === g.channels.general).map((m) => m.embeds[0]?.description);
const rolesOf = (g: DiscordGuild, userId: string) => bed.fake.state.guilds.get(g.id)!.members.get(userId)!.roles;
const outcome = (guildId: string, eventId: string) => gateway.client.workflow.getHandle(levelUpEffectsWorkflowId(guildId, eventId)).result();

describe('level-up effects from messages', () => {
  it('are recorded with the XP and applied by the worker, not by the bot', async () => {
    const g = await levelsGuild();
    const userId = g.addMember();
    const last = await levelUpByMessages(g, userId);
    const [effect] = await effectsOf(g.id);
    // With the channel of the message that reached the level, for a server that announces there (levelUpAnnouncement.test.ts).
    expect(effect).toEqual({ event_id: expect.stringMatching(/^evt_/), user_id: userId, previous_level: 0, level: 1, channel_id: last.channel_id, applied_at: null, refused: null });
    // The bot itself called nothing on Discord for it.
    expect(rolePuts(g, userId)).toEqual([]);
    expect(announcements(g)).toEqual([]);

    expect(await relay()).toBe(1);
    expect(await outcome(g.id, effect!.event_id)).toEqual({ refused: [] });
    expect(rolesOf(g, userId)).toEqual([g.roles.member, g.roles.reward]);
    expect(announcements(g)).toEqual([`<@${userId}> reached level 1`]);
    expect(await effectsOf(g.id)).toEqual([{ ...effect, applied_at: expect.any(Date), refused: [] }]);
  });

  it('with Discord failing the role add: retried until Discord is back, the role given once and announced once', async () => {
    const g = await levelsGuild();
    const userId = g.addMember();
    bed.fake.fail({ method: 'PUT', path: `/guilds/${g.id}/members/${userId}/roles/${g.roles.reward}`, answer: serverError(502), times: 2 });
    await levelUpByMessages(g, userId);
    const [effect] = await effectsOf(g.id);
    expect(await relay()).toBe(1);
    expect(await outcome(g.id, effect!.event_id)).toEqual({ refused: [] });
    expect(rolePuts(g, userId)).toEqual([502, 502, 204]);
    expect(rolesOf(g, userId)).toEqual([g.roles.member, g.roles.reward]);
    expect(announcements(g)).toEqual([`<@${userId}> reached level 1`]);
  });

  it('the same MESSAGE_CREATE replayed counts once and applies the effects once; a second start runs nothing', async () => {
    const g = await levelsGuild();
    const userId = g.addMember();
    const last = await levelUpByMessages(g, userId);
    expect(await relay()).toBe(1);
    const [effect] = await effectsOf(g.id);
    await outcome(g.id, effect!.event_id);

    await bed.dispatch('MESSAGE_CREATE', last);
    const xp = await database.db.selectFrom('level_members').select(['xp', 'messages']).where('guild_id', '=', g.id).where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(xp).toEqual({ xp: 100, messages: 5 });
    expect(await effectsOf(g.id)).toHaveLength(1);
    expect(await relay()).toBe(0);
    // A start of the closed run again (a relay that crashed before recording its start) finds it closed.
    await launchOperation({ db: database.db, temporal: gateway, clock: bed.clock }, levelUpEffectsOperation, { eventId: effect!.event_id, guildId: g.id, userId, previousLevel: 0, level: 1 });
    expect(await outcome(g.id, effect!.event_id)).toEqual({ refused: [] });
    expect(rolePuts(g, userId)).toEqual([204]);
    expect(announcements(g)).toEqual([`<@${userId}> reached level 1`]);
  });

  it('a reward role Discord refuses (50013): tried once, recorded as refused, the announcement still posted', async () => {
    const g = await levelsGuild();
    const userId = g.addMember();
    bed.fake.fail({ method: 'PUT', path: `/guilds/${g.id}/members/${userId}/roles/${g.roles.reward}`, answer: missingPermissions() });
    await levelUpByMessages(g, userId);
    expect(await relay()).toBe(1);
    const [effect] = await effectsOf(g.id);
    const refused = [{ effect: 'rewardRoles', error: 'BOT_MISSING_PERMISSIONS' }];
    expect(await outcome(g.id, effect!.event_id)).toEqual({ refused });
    expect(rolePuts(g, userId)).toEqual([403]);
    expect(rolesOf(g, userId)).toEqual([g.roles.member]);
    expect(announcements(g)).toEqual([`<@${userId}> reached level 1`]);
    expect(await effectsOf(g.id)).toEqual([{ ...effect, applied_at: expect.any(Date), refused }]);
  });
});
