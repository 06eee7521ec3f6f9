import { PermissionFlagsBits as P } from 'discord-api-types/v10';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveModerationSettings } from '../../db/moderation/settings.js';
import { commandInteraction } from '../../process/infra/fakeDiscord/index.js';
import { useTestDatabase } from '../harness/database.js';
import { discordPlatformOn } from '../harness/discordGuild.js';
import { snowflake } from '../harness/fixtures.js';
import { startStoppableWorker, testGateway } from '../harness/temporal.js';
import { startCommandBed, type CommandBed } from './commandBed.js';
import { auditActorsOf } from '../harness/rows.js';

// /warn, /timeout, /untimeout, /kick, /ban and /unban on Discord: the same action the API's moderation routes
// record, asked by the invoker (source `command`, the invoker as moderator), run by the moderation workflow on a
// real worker against the fake Discord, and answered with the case or the refusal in words.

const NOW = new Date('2026-11-29T12:00:00Z');
const database = useTestDatabase();
const db = () => database.db;
const gateway = testGateway();
let t: CommandBed;
let worker: { stop(): Promise<void> } | undefined;
const roles = { mod: snowflake(), helper: snowflake() };

beforeAll(async () => {
  t = await startCommandBed(database, NOW, ['moderation'], { temporal: gateway });
  // The role ladder, highest first: Staff (Administrator) 6, the bot 5, Mod (kick, ban, timeout) 4, Helper (timeout) 3, Member 1.
  const guild = t.bed.fake.state.guilds.get(t.server.id)!;
  guild.roles.get(t.server.roles.staff)!.position = 6;
  guild.roles.get(t.server.roles.botRole)!.position = 5;
  const base = guild.roles.get(t.server.roles.member)!;
  guild.roles.set(roles.mod, { ...base, id: roles.mod, name: 'Mod', position: 4, permissions: String(P.KickMembers | P.BanMembers | P.ModerateMembers) });
  guild.roles.set(roles.helper, { ...base, id: roles.helper, name: 'Helper', position: 3, permissions: String(P.ModerateMembers) });
  await saveModerationSettings(db(), t.server.id, { dmMembers: false, logChannelId: null, warningExpirySeconds: null });
  worker = await startStoppableWorker(db(), gateway, discordPlatformOn(t.bed.fake));
});
afterAll(async () => {
  await worker?.stop();
  await t?.bed.close();
  await gateway.client.connection.close();
});

const guild = () => t.bed.fake.state.guilds.get(t.server.id)!;
const cases = () => db().selectFrom('moderation_cases').select(['number', 'action', 'user_id', 'moderator_id', 'source', 'reason', 'api_key_id']).where('guild_id', '=', t.server.id).orderBy('number').execute();
const actions = () => db().selectFrom('moderation_actions').select(['action', 'user_id', 'moderator_id', 'api_key_id', 'source', 'status', 'error']).where('guild_id', '=', t.server.id).execute();
const lastCase = async () => (await cases()).at(-1);

/** What a refused command leaves: no action, no case, nothing asked of Discord beyond reads, the interaction claimed. */
async function changesNothing(run: () => Promise<string>): Promise<string> {
  const before = { actions: await actions(), cases: await cases(), writes: t.bed.fake.requests.filter((r) => r.method !== 'GET' && !r.path.includes('/interactions/') && !r.path.includes('/webhooks/')).length };
  const text = await run();
  expect(await actions()).toEqual(before.actions);
  expect(await cases()).toEqual(before.cases);
  expect(t.bed.fake.requests.filter((r) => r.method !== 'GET' && !r.path.includes('/interactions/') && !r.path.includes('/webhooks/')).length).toBe(before.writes);
  return text;
}

describe('each action, end to end', () => {
  it('/warn: a case with source command and the invoker as moderator', async () => {
    const mod = t.member([roles.mod]);
    const target = t.member([t.server.roles.member]);
    const text = await t.answer({ userId: mod, name: 'warn', options: { member: target, reason: 'Spam in #general' } });
    const c = await lastCase();
    expect(text).toBe(`Warned <@${target}>: case #${c!.number}.`);
    expect(c).toMatchObject({ action: 'warn', user_id: target, moderator_id: mod, source: 'command', reason: 'Spam in #general', api_key_id: null });
    expect((await actions()).filter((a) => a.moderator_id === mod)).toEqual([
      { action: 'warn', user_id: target, moderator_id: mod, api_key_id: null, source: 'command', status: 'done', error: null },
    ]);
    expect((await auditActorsOf(db(), t.server.id, 'moderation.warn')).at(-1)).toEqual({ actor_type: 'member', actor_id: mod });
  });

  it('/timeout and /untimeout: the member is timed out on Discord for the duration, then the timeout is lifted', async () => {
    const mod = t.member([roles.helper]);
    const target = t.member([t.server.roles.member]);
    const text = await t.answer({ userId: mod, name: 'timeout', options: { member: target, duration: '1h30m', reason: 'Cool down' } });
    expect(text).toBe(`Timed out <@${target}> for 1 hour 30 minutes: case #${(await lastCase())!.number}.`);
    const until = guild().members.get(target)!.communication_disabled_until;
    expect(Date.parse(until!) - Date.now()).toBeGreaterThan(85 * 60_000);
    expect(await lastCase()).toMatchObject({ action: 'timeout', moderator_id: mod, source: 'command' });
    const patch = t.bed.fake.requests.find((r) => r.method === 'PATCH' && r.path === `/guilds/${t.server.id}/members/${target}`);
    expect(decodeURIComponent(patch!.headers['x-audit-log-reason']!)).toBe(`Cool down (via /timeout by user ${mod})`);

    expect(await t.answer({ userId: mod, name: 'untimeout', options: { member: target } })).toBe(`Lifted the timeout of <@${target}>: case #${(await lastCase())!.number}.`);
    expect(guild().members.get(target)!.communication_disabled_until).toBeNull();
    expect(await lastCase()).toMatchObject({ action: 'untimeout', moderator_id: mod, source: 'command', reason: null });
  });

  it('/kick: the member leaves the server', async () => {
    const mod = t.member([roles.mod]);
    const target = t.member([t.server.roles.member]);
    expect(await t.answer({ userId: mod, name: 'kick', options: { member: target, reason: 'Rude' } })).toBe(`Kicked <@${target}>: case #${(await lastCase())!.number}.`);
    expect(guild().members.has(target)).toBe(false);
    expect(await lastCase()).toMatchObject({ action: 'kick', user_id: target, moderator_id: mod, source: 'command' });
    // The kick is the member's leave, recorded with the case: both name the moderator who used the command.
    expect((await auditActorsOf(db(), t.server.id, 'moderation.kick')).at(-1)).toEqual({ actor_type: 'member', actor_id: mod });
    expect(await auditActorsOf(db(), t.server.id, 'members.leave').then((rows) => rows.at(-1))).toEqual({ actor_type: 'member', actor_id: mod });
  });

  it('/ban with delete_messages, then /unban of the user who is no member any more', async () => {
    const mod = t.member([roles.mod]);
    const target = t.member([t.server.roles.member]);
    expect(await t.answer({ userId: mod, name: 'ban', options: { member: target, reason: 'Scam links', delete_messages: 86_400 } })).toBe(
      `Banned <@${target}>: case #${(await lastCase())!.number}.`,
    );
    const put = t.bed.fake.requests.find((r) => r.method === 'PUT' && r.path === `/guilds/${t.server.id}/bans/${target}`);
    expect(put!.body).toEqual({ delete_message_seconds: 86_400 });
    expect(guild().bans.has(target)).toBe(true);
    expect(guild().members.has(target)).toBe(false);

    expect(await t.answer({ userId: mod, name: 'unban', options: { user: target } })).toBe(`Unbanned <@${target}>: case #${(await lastCase())!.number}.`);
    expect(guild().bans.has(target)).toBe(false);
    expect((await cases()).slice(-2).map((c) => [c.action, c.moderator_id, c.source])).toEqual([
      ['ban', mod, 'command'],
      ['unban', mod, 'command'],
    ]);
  });
});

describe('refused by the rules when the action runs, in words; nothing done on Discord', () => {
  it('a target whose highest role is not below the invoker’s', async () => {
    const helper = t.member([roles.helper]);
    const target = t.member([roles.mod]);
    const text = await t.answer({ userId: helper, name: 'timeout', options: { member: target, duration: '10m', reason: 'x' } });
    expect(text).toBe(`You cannot time out <@${target}>: their highest role is not below both yours and the bot’s, or they own the server.`);
    expect(guild().members.get(target)!.communication_disabled_until).toBeNull();
    expect((await actions()).filter((a) => a.moderator_id === helper)).toEqual([
      { action: 'timeout', user_id: target, moderator_id: helper, api_key_id: null, source: 'command', status: 'failed', error: 'HIERARCHY_HIGHER' },
    ]);
    expect((await cases()).filter((c) => c.user_id === target)).toEqual([]);
  });

  it('a target above the bot (an administrator), and the server’s owner', async () => {
    const admin = t.member([t.server.roles.staff]);
    const target = t.member([t.server.roles.staff]);
    expect(await t.answer({ userId: admin, name: 'kick', options: { member: target } })).toBe(
      `You cannot kick <@${target}>: their highest role is not below both yours and the bot’s, or they own the server.`,
    );
    expect(guild().members.has(target)).toBe(true);
    expect(await t.answer({ userId: admin, name: 'ban', options: { member: t.server.ownerId } })).toBe(
      `You cannot ban <@${t.server.ownerId}>: their highest role is not below both yours and the bot’s, or they own the server.`,
    );
    expect(guild().bans.has(t.server.ownerId)).toBe(false);
  });

  it('yourself, and an unban of a user who is not banned', async () => {
    const mod = t.member([roles.mod]);
    expect(await t.answer({ userId: mod, name: 'warn', options: { member: mod, reason: 'me' } })).toBe(
      `You cannot warn <@${mod}>: a moderation action cannot be taken on yourself or on the bot.`,
    );
    const other = t.member();
    expect(await t.answer({ userId: mod, name: 'unban', options: { user: other } })).toBe(`<@${other}> is not banned.`);
  });
});

describe('refused before anything is recorded', () => {
  it('a member without the permission, even when the server opened the command to everyone', async () => {
    const member = t.member([t.server.roles.member]);
    const target = t.member([t.server.roles.member]);
    expect(() => commandInteraction(t.bed.fake.state, { guildId: t.server.id, userId: member, name: 'ban', options: { member: target } })).toThrow(/Discord hides "ban"/);
    const text = await changesNothing(() => t.answer({ userId: member, name: 'ban', options: { member: target }, permissionsOverridden: true }));
    expect(text).toBe('You need the Ban Members permission to use this command.');
    expect(guild().bans.has(target)).toBe(false);
  });

  it('a helper (Timeout Members only) using /kick opened to everyone', async () => {
    const helper = t.member([roles.helper]);
    const target = t.member([t.server.roles.member]);
    expect(await changesNothing(() => t.answer({ userId: helper, name: 'kick', options: { member: target }, permissionsOverridden: true }))).toBe(
      'You need the Kick Members permission to use this command.',
    );
    expect(guild().members.has(target)).toBe(true);
  });

  it('a user who is not a member of the server (warn, timeout and kick need one)', async () => {
    const mod = t.member([roles.mod]);
    const gone = t.member();
    guild().members.delete(gone);
    expect(await changesNothing(() => t.answer({ userId: mod, name: 'warn', options: { member: gone, reason: 'x' } }))).toBe('That user is not a member of this server.');
  });

  it('a duration that is no duration, or longer than 28 days', async () => {
    const mod = t.member([roles.mod]);
    const target = t.member([t.server.roles.member]);
    expect(await changesNothing(() => t.answer({ userId: mod, name: 'timeout', options: { member: target, duration: 'soon', reason: 'x' } }))).toBe(
      'Give a duration such as 10m, 1h30m or 2d (s, m, h, d or w).',
    );
    expect(await changesNothing(() => t.answer({ userId: mod, name: 'timeout', options: { member: target, duration: '29d', reason: 'x' } }))).toBe(
      'A timeout lasts 1 minute to 28 days.',
    );
  });

  it('Moderation turned off', async () => {
    const mod = t.member([roles.mod]);
    const target = t.member([t.server.roles.member]);
    await t.setFeatures([]);
    try {
      expect(await changesNothing(() => t.answer({ userId: mod, name: 'warn', options: { member: target, reason: 'x' } }))).toBe('Moderation is turned off on this server.');
    } finally {
      await t.setFeatures(['moderation']);
    }
  });
});
