import { describe, expect, it } from 'vitest';
import { findLevelSettings } from '../../db/levels/members.js';
import { upsertPlatformChannels } from '../../db/platform/local.js';
import { listPlatformMessages } from '../../db/platform/messages.js';
import { listPlatformDirectMessages, setPlatformAcceptsDms } from '../../db/platform/moderation.js';
import { applyLevelUpEffects } from '../../src/levels/applyLevelUpEffects.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { snowflake } from '../harness/fixtures.js';
import { countWrites } from '../harness/rows.js';
import { cliGuild } from './cli.js';
import { useSimulateBed } from './simulateBed.js';

// npm run admin -- levels settings: where level-ups are announced (a channel, the member's current channel, a DM,
// off) and their message; and the announcement each choice makes when a member reaches a level.

const NOW = new Date('2026-11-29T10:00:00Z');
const { database, admin, auditOf } = useSimulateBed(NOW);
const settings = (guildId: string, ...flags: string[]) => admin('levels', 'settings', '--guild', guildId, ...flags, '--json');
const state = async (guildId: string) => ({ settings: await findLevelSettings(database.db, guildId), writes: await countWrites(database.db, guildId) });
const DEFAULTS = {
  announceTo: 'off',
  announceChannelId: null,
  announceTemplate: 'GG {user}, you reached level {level}!',
  removePreviousRewards: false,
  messageCooldownSeconds: 60,
  xpPerMessage: 20,
  xpPerVoiceMinute: 10,
  noXpChannelIds: [],
  noXpRoleIds: [],
};

/** A server with Levels, a member, a text channel for level-ups, another the member writes in, and a voice channel. */
async function levelGuild() {
  const { id } = await cliGuild(admin, { features: 'all' });
  const [user, levelUps, chat, voice] = [snowflake(), snowflake(), snowflake(), snowflake()];
  await upsertPlatformChannels(database.db, id, [
    { channelId: levelUps, name: 'level-ups', type: 'text', position: 0 },
    { channelId: chat, name: 'chat', type: 'text', position: 1 },
    { channelId: voice, name: 'Lounge', type: 'voice', position: 2 },
  ]);
  expect((await admin('member', 'add', '--guild', id, '--user', user)).code).toBe(0);
  return { id, user, levelUps, chat, voice };
}

/**
 * 13 messages: 260 XP, level 2 reached from 0, written in `channel` when given; its effects are recorded (no
 * Temporal here), then applied as the worker's activity applies them, on the local platform.
 */
async function levelUp(g: { id: string; user: string }, channel?: string) {
  const res = await admin('simulate', 'level-activity', '--guild', g.id, '--user', g.user, '--messages', '13', ...(channel ? ['--channel', channel] : []), '--json');
  expect(res.json()).toMatchObject({ level: 2, levelUpEffects: 'relay' });
  const { event_id } = await database.db
    .selectFrom('level_up_effects')
    .select('event_id')
    .where('guild_id', '=', g.id)
    .where('user_id', '=', g.user)
    .executeTakeFirstOrThrow();
  // A DM the member does not accept or nowhere to post is no refusal: the level stands, nothing is announced.
  expect(await applyLevelUpEffects(database.db, createLocalPlatform(database.db), event_id, NOW)).toEqual({ refused: [] });
}

const messagesIn = async (guildId: string, channelId: string) => (await listPlatformMessages(database.db, guildId, channelId)).map((m) => m.content);
const dmsTo = async (guildId: string, userId: string) => (await listPlatformDirectMessages(database.db, guildId, userId)).map((m) => m.content);

describe('admin levels settings', () => {
  it('shows the defaults (off, the default message) without writing anything', async () => {
    const g = await levelGuild();
    const before = await state(g.id);
    const res = await settings(g.id);
    expect(res.stderr).toBe('');
    expect(res.json()).toEqual({ guildId: g.id, ...DEFAULTS });
    expect(await state(g.id)).toEqual(before);
  });

  it('sets the channel (which turns announcing there on), the target and the message, with an audit row per change', async () => {
    const g = await levelGuild();
    expect((await settings(g.id, '--announce-channel', g.levelUps)).json()).toMatchObject({ announceTo: 'channel', announceChannelId: g.levelUps });
    expect((await settings(g.id, '--announce-to', 'dm', '--message', '{user} is now level {level}')).json()).toMatchObject({
      announceTo: 'dm',
      announceChannelId: g.levelUps,
      announceTemplate: '{user} is now level {level}',
    });
    expect((await settings(g.id, '--announce-to', 'current', '--announce-channel', 'none')).json()).toMatchObject({ announceTo: 'current', announceChannelId: null });
    expect(await findLevelSettings(database.db, g.id)).toEqual({ ...DEFAULTS, announceTo: 'current', announceTemplate: '{user} is now level {level}' });
    expect(await auditOf(g.id, 'levels.settings')).toMatchObject([
      { actor_type: 'operator', actor_id: 'alice', data: { before: { announceTo: 'off' }, after: { announceTo: 'channel', announceChannelId: g.levelUps } } },
      { data: { after: { announceTo: 'dm' } } },
      { data: { after: { announceTo: 'current', announceChannelId: null } } },
    ]);
    const text = await admin('levels', 'settings', '--guild', g.id, '--announce-to', 'off');
    expect(text.stdout).toBe(
      `Level settings of guild ${g.id}: level-ups announced off, message "{user} is now level {level}".\n` +
        '20 XP a message (at most once every 60 s), 10 XP a voice minute; reward roles stack.',
    );
  });

  it('sets the XP rates, the cooldown and reward stacking through the same use case as the console, audited', async () => {
    const g = await levelGuild();
    const res = await settings(g.id, '--xp-per-message', '15', '--xp-per-voice-minute', '0', '--cooldown', '30', '--rewards', 'replace');
    expect(res.json()).toMatchObject({ xpPerMessage: 15, xpPerVoiceMinute: 0, messageCooldownSeconds: 30, removePreviousRewards: true });
    expect(await findLevelSettings(database.db, g.id)).toEqual({ ...DEFAULTS, xpPerMessage: 15, xpPerVoiceMinute: 0, messageCooldownSeconds: 30, removePreviousRewards: true });
    expect(await auditOf(g.id, 'levels.settings')).toMatchObject([{ actor_type: 'operator', data: { before: { xpPerMessage: 20 }, after: { xpPerMessage: 15 } } }]);
  });

  it.each([
    ['an unknown target', ['--announce-to', 'everywhere'], 'INVALID_ARGUMENT', 2],
    ['a malformed channel', ['--announce-channel', '12'], 'INVALID_ARGUMENT', 2],
    ['a channel the server does not have', ['--announce-channel', '__unknown__'], 'INVALID_CHANNEL', 1],
    ['a voice channel', ['--announce-channel', '__voice__'], 'INVALID_CHANNEL', 1],
    ['announcing in a channel without one', ['--announce-to', 'channel'], 'ANNOUNCE_CHANNEL_REQUIRED', 1],
    ['a channel taken away while announcing there', ['--announce-to', 'channel', '--announce-channel', 'none'], 'ANNOUNCE_CHANNEL_REQUIRED', 1],
    ['an empty message', ['--message', '  '], 'INVALID_TEMPLATE', 1],
    ['a message past 1,000 characters', ['--message', `{user} ${'x'.repeat(994)}`], 'INVALID_TEMPLATE', 1],
    ['an unknown placeholder', ['--message', 'GG {user}, welcome to {server}!'], 'INVALID_TEMPLATE', 1],
    ['XP per message past 1,000', ['--xp-per-message', '1001'], 'INVALID_ARGUMENT', 2],
    ['a negative cooldown', ['--cooldown', '-5'], 'INVALID_ARGUMENT', 2],
    ['an unknown reward stacking', ['--rewards', 'both'], 'INVALID_ARGUMENT', 2],
  ])('refuses %s and changes nothing', async (_, flags, code, exit) => {
    const g = await levelGuild();
    const args = flags.map((f) => (f === '__unknown__' ? snowflake() : f === '__voice__' ? g.voice : f));
    const before = await state(g.id);
    const res = await settings(g.id, ...args);
    expect([res.code, res.error().error]).toEqual([exit, code]);
    expect(await state(g.id)).toEqual(before);
  });

  it('refuses an unknown guild and a missing --guild', async () => {
    const unknown = await settings(snowflake(), '--announce-to', 'dm');
    expect([unknown.code, unknown.error().error]).toEqual([1, 'GUILD_NOT_FOUND']);
    const missing = await admin('levels', 'settings', '--json');
    expect([missing.code, missing.error().error]).toEqual([2, 'MISSING_FLAG']);
  });

  it('is listed by the general help', async () => {
    expect((await admin('--help')).stdout).toContain('levels');
    expect((await admin('levels', '--help')).stdout).toContain('settings');
  });
});

describe('the level-up announcement', () => {
  it('in the set channel: the member pinged above the card, wherever they wrote', async () => {
    const g = await levelGuild();
    await settings(g.id, '--announce-channel', g.levelUps, '--message', 'GG {user}, level {level}!');
    await levelUp(g, g.chat);
    expect(await messagesIn(g.id, g.levelUps)).toEqual([`<@${g.user}>\n**Level 2**\nGG <@${g.user}>, level 2!`]);
    expect(await messagesIn(g.id, g.chat)).toEqual([]);
  });

  it("in the member's current channel: where the message that reached the level was written; none known, none posted", async () => {
    const g = await levelGuild();
    await settings(g.id, '--announce-to', 'current');
    await levelUp(g, g.chat);
    expect(await messagesIn(g.id, g.chat)).toEqual([`<@${g.user}>\n**Level 2**\nGG <@${g.user}>, you reached level 2!`]);
    // Activity without a channel (voice minutes reported, a staff change): nowhere to post.
    const other = { id: g.id, user: snowflake() };
    await admin('member', 'add', '--guild', g.id, '--user', other.user);
    await levelUp(other);
    expect(await messagesIn(g.id, g.chat)).toHaveLength(1);
    expect(await messagesIn(g.id, g.levelUps)).toEqual([]);
  });

  it('by DM: the card alone; a member who accepts no DMs gets none, and the level stands', async () => {
    const g = await levelGuild();
    await settings(g.id, '--announce-to', 'dm');
    await levelUp(g, g.chat);
    expect(await dmsTo(g.id, g.user)).toEqual([`**Level 2**\nGG <@${g.user}>, you reached level 2!`]);
    expect(await messagesIn(g.id, g.chat)).toEqual([]);
    const closed = { id: g.id, user: snowflake() };
    await admin('member', 'add', '--guild', g.id, '--user', closed.user);
    await setPlatformAcceptsDms(database.db, g.id, closed.user, false);
    await levelUp(closed, g.chat);
    expect(await dmsTo(g.id, closed.user)).toEqual([]);
  });

  it('off: nothing posted anywhere, even with a channel kept from before', async () => {
    const g = await levelGuild();
    await settings(g.id, '--announce-channel', g.levelUps);
    await settings(g.id, '--announce-to', 'off');
    await levelUp(g, g.chat);
    expect([...(await messagesIn(g.id, g.levelUps)), ...(await messagesIn(g.id, g.chat)), ...(await dmsTo(g.id, g.user))]).toEqual([]);
  });
});
