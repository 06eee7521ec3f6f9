import { describe, expect, it } from 'vitest';
import { addLevelReward, saveLevelSettings } from '../../db/levels/members.js';
import { findGuild } from '../../db/guild/guilds.js';
import { countMessages } from '../../src/levels/countMessage.js';
import { snowflake } from '../harness/fixtures.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { errorCodeOf, fieldErrorOf } from './consoleClient.js';
import { levelsBed } from './levelsBed.js';

// The levels page's XP rules, no-XP channels and reward roles, end to end through the use cases the CLI calls, each
// refusal on its field with nothing changed (a member's XP change: levelXp.test.ts).
const { db, app } = useWorkflowTestBed({ app: { env: { CONSOLE_SIGN_IN_LIMIT: '1000' } } });

const { signedIn, state } = levelsBed(db, app);

const rulesForm = (over: Record<string, string | string[]> = {}) => ({ 'xp-per-message': '20', 'xp-per-voice-minute': '10', 'message-cooldown': '60', 'reward-stacking': 'stack', ...over });
describe('the levels rules', () => {
  it('shows the rules as today (20 XP a message, 10 a voice minute, 60 s, stacking), roles by name, and empty lists saying what to do', async () => {
    const { client, path } = await signedIn();
    const page = await client.get(path);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/id="xp-per-message"[^>]*value="20"/);
    expect(page.text).toMatch(/id="xp-per-voice-minute"[^>]*value="10"/);
    expect(page.text).toMatch(/id="message-cooldown"[^>]*value="60"/);
    expect(page.text).toMatch(/value="stack" checked/);
    expect(page.text).toContain('@Regular');
    expect(page.text).toContain('data-empty="no-xp-channels"');
    expect(page.text).toContain('data-empty="rewards"');
    // A category has no messages; a managed role cannot be given.
    expect(page.text).not.toMatch(/<option value="\d+">Lobby/);
  });

  it('saves rates, cooldown, replace and no-XP roles through changeLevelSettings, audited with the console user; the bot path then earns by them', async () => {
    const { guild, client, path, muted, general } = await signedIn();
    const res = await client.post(`${path}/rules`, rulesForm({ 'xp-per-message': '35', 'xp-per-voice-minute': '0', 'message-cooldown': '0', 'reward-stacking': 'replace', 'no-xp-roles': [muted] }));
    expect([res.status, res.headers.location]).toEqual([303, path]);
    const { settings, audit } = await state(guild.id);
    expect(settings).toMatchObject([{ xp_per_message: 35, xp_per_voice_minute: 0, message_cooldown_seconds: 0, remove_previous_rewards: true, no_xp_role_ids: [muted] }]);
    expect(audit).toMatchObject([{ actor_type: 'console_user', actor_id: guild.managerId, action: 'levels.settings', data: { after: { xpPerMessage: 35, noXpRoleIds: [muted] } } }]);
    // The use case the bot's MESSAGE_CREATE calls (test/bot/messageXp.test.ts runs it through the gateway).
    const talker = snowflake();
    const at = new Date();
    const record = await findGuild(db(), guild.id);
    const counted = await db().transaction().execute((trx) =>
      countMessages(trx, record!, [
        { userId: talker, messageId: snowflake(), at, channelId: general, roleIds: [muted] },
        { userId: talker, messageId: snowflake(), at, channelId: general, roleIds: [] },
      ], at),
    );
    expect(counted.earned).toBe(1);
    expect(await db().selectFrom('level_members').select(['xp', 'messages']).where('guild_id', '=', guild.id).where('user_id', '=', talker).execute()).toEqual([{ xp: 35, messages: 1 }]);
    const page = await client.get(path);
    expect(page.text).toMatch(/id="xp-per-message"[^>]*value="35"/);
    expect(page.text).toMatch(new RegExp(`value="${muted}" checked`));
  });

  it('adds and removes a no-XP channel and a reward role, each audited with the console user', async () => {
    const { guild, client, path, spam, regular } = await signedIn();
    expect((await client.post(`${path}/no-xp-channels`, { 'no-xp-channel': spam })).status).toBe(303);
    expect((await client.post(`${path}/rewards`, { 'reward-level': '5', 'reward-role': regular })).status).toBe(303);
    let now = await state(guild.id);
    expect(now.settings).toMatchObject([{ no_xp_channel_ids: [spam] }]);
    expect(now.rewards).toEqual([{ level: 5, role_id: regular }]);
    const page = await client.get(path);
    expect(page.text).toContain(`data-no-xp-channel="${spam}"`);
    expect(page.text).toContain('#bot-spam');
    expect(page.text).toMatch(new RegExp(`data-reward="5:${regular}"><td>5</td><td>@Regular</td>`));
    expect((await client.post(`${path}/no-xp-channels/remove`, { channel: spam })).status).toBe(303);
    expect((await client.post(`${path}/rewards/remove`, { level: '5', role: regular })).status).toBe(303);
    now = await state(guild.id);
    expect(now.settings).toMatchObject([{ no_xp_channel_ids: [] }]);
    expect(now.rewards).toEqual([]);
    expect(now.audit.map((a) => [a.actor_type, a.actor_id, a.action])).toEqual([
      ['console_user', guild.managerId, 'levels.settings'],
      ['console_user', guild.managerId, 'levels.reward'],
      ['console_user', guild.managerId, 'levels.settings'],
      ['console_user', guild.managerId, 'levels.reward'],
    ]);
    expect(now.audit[1]!.data).toEqual({ add: { level: 5, roleId: regular } });
  });

  type Case = [string, string, (ids: Awaited<ReturnType<typeof signedIn>>) => Record<string, string | string[]>, number, string, string];
  it.each<Case>([
    ['XP per message above 1,000', '/rules', () => rulesForm({ 'xp-per-message': '1001' }), 422, 'INVALID_RATE', 'xp-per-message'],
    ['XP per voice minute not a number', '/rules', () => rulesForm({ 'xp-per-voice-minute': 'ten' }), 422, 'INVALID_RATE', 'xp-per-voice-minute'],
    ['a negative cooldown', '/rules', () => rulesForm({ 'message-cooldown': '-1' }), 422, 'INVALID_RATE', 'message-cooldown'],
    ['a cooldown over an hour', '/rules', () => rulesForm({ 'message-cooldown': '3601' }), 422, 'INVALID_RATE', 'message-cooldown'],
    ['neither stack nor replace', '/rules', () => rulesForm({ 'reward-stacking': '' }), 400, 'INVALID_INPUT', 'reward-stacking'],
    ['a no-XP role of no server', '/rules', () => rulesForm({ 'no-xp-roles': [snowflake()] }), 422, 'INVALID_ROLE', 'no-xp-roles'],
    ['26 no-XP roles', '/rules', (g) => rulesForm({ 'no-xp-roles': [g.regular, ...Array.from({ length: 25 }, () => snowflake())] }), 422, 'TOO_MANY_ROLES', 'no-xp-roles'],
    ['no channel', '/no-xp-channels', () => ({ 'no-xp-channel': '' }), 400, 'INVALID_INPUT', 'no-xp-channel'],
    ['a category as a no-XP channel', '/no-xp-channels', (g) => ({ 'no-xp-channel': g.lobby }), 422, 'INVALID_CHANNEL', 'no-xp-channel'],
    ['a reward at level 0', '/rewards', (g) => ({ 'reward-level': '0', 'reward-role': g.regular }), 422, 'INVALID_LEVEL', 'reward-level'],
    ['a reward at level 501', '/rewards', (g) => ({ 'reward-level': '501', 'reward-role': g.regular }), 422, 'INVALID_LEVEL', 'reward-level'],
    ['a managed role as a reward', '/rewards', (g) => ({ 'reward-level': '3', 'reward-role': g.bots }), 422, 'INVALID_ROLE', 'reward-role'],
    ['no role', '/rewards', () => ({ 'reward-level': '3' }), 400, 'INVALID_INPUT', 'reward-role'],
  ])('refuses %s on the field, changing nothing', async (_, action, fields, status, code, field) => {
    const bed = await signedIn();
    const sent = fields(bed);
    const before = await state(bed.guild.id);
    const res = await bed.client.post(`${bed.path}${action}`, sent);
    expect([res.status, /data-error="([A-Z_]+)"/.exec(res.text)?.[1]]).toEqual([status, code]);
    expect(res.text).toContain(`href="#${field}"`);
    expect(fieldErrorOf(res.text, field)).toBeTruthy();
    expect(await state(bed.guild.id)).toEqual(before);
  });

  it('refuses a reward role already given at a level, removing a reward that is not one, the 26th reward and the 51st no-XP channel, changing nothing', async () => {
    const { guild, client, path, regular, muted, spam } = await signedIn();
    await addLevelReward(db(), guild.id, { level: 2, roleId: regular });
    await client.get(path);
    const notOne = await client.post(`${path}/rewards/remove`, { level: '9', role: regular });
    expect([notOne.status, errorCodeOf(notOne), fieldErrorOf(notOne.text, 'reward-role')]).toEqual([422, 'REWARD_NOT_FOUND', 'Level 9 has no such reward role.']);
    const taken = await client.post(`${path}/rewards`, { 'reward-level': '4', 'reward-role': regular });
    expect([taken.status, errorCodeOf(taken), fieldErrorOf(taken.text, 'reward-role')]).toEqual([422, 'REWARD_EXISTS', 'That role is already the reward of level 2.']);
    for (let level = 3; level <= 26; level += 1) await addLevelReward(db(), guild.id, { level, roleId: snowflake() });
    await saveLevelSettings(db(), guild.id, { announceChannelId: null, announceTemplate: 'GG {user}', removePreviousRewards: false, noXpChannelIds: Array.from({ length: 50 }, () => snowflake()) });
    const before = await state(guild.id);
    const full = await client.post(`${path}/rewards`, { 'reward-level': '30', 'reward-role': muted });
    expect([full.status, errorCodeOf(full)]).toEqual([422, 'TOO_MANY_REWARDS']);
    const channels = await client.post(`${path}/no-xp-channels`, { 'no-xp-channel': spam });
    expect([channels.status, errorCodeOf(channels), fieldErrorOf(channels.text, 'no-xp-channel')]).toEqual([422, 'TOO_MANY_CHANNELS', 'At most 50 channels earn nothing.']);
    expect(await state(guild.id)).toEqual(before);
  });
});

describe('a manager whose role was taken since the page opened', () => {
  it('is refused 403 on the rules, the lists and the XP change, changing nothing', async () => {
    const { guild, client, path, spam, regular } = await signedIn();
    await client.get(`${path}/members/${guild.memberId}`);
    const before = await state(guild.id);
    await db().updateTable('platform_members').set({ role_ids: [] }).where('guild_id', '=', guild.id).where('user_id', '=', guild.managerId).execute();
    const actions: Array<[string, Record<string, string>]> = [
      [`${path}/rules`, rulesForm({ 'xp-per-message': '99' })],
      [`${path}/no-xp-channels`, { 'no-xp-channel': spam }],
      [`${path}/rewards`, { 'reward-level': '2', 'reward-role': regular }],
      [`${path}/members/${guild.memberId}/xp-changes`, { 'xp-type': 'add', 'xp-amount': '5', 'xp-unit': 'xp' }],
    ];
    for (const [action, fields] of actions) {
      const res = await client.post(action, fields);
      expect([action, res.status, errorCodeOf(res)]).toEqual([action, 403, 'NOT_A_SERVER_MANAGER']);
    }
    expect(await state(guild.id)).toEqual(before);
  });
});
