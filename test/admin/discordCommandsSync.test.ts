import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/core/clock.js';
import { createApplicationCommands } from '../../src/platform/discord/applicationCommands.js';
import { fakeDiscordRest } from '../harness/fakeDiscordRest.js';
import { COMMAND_DEFINITIONS } from '../../process/bot/commands/commandTable.js';
import { addGuild, registeredCommands, startFakeDiscord, type FakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { useTestDatabase } from '../harness/database.js';
import { snowflake } from '../harness/fixtures.js';
import { serverWithBot } from '../bot/fakeServer.js';
import { cli } from './cli.js';

// `npm run admin -- discord commands sync [--guild ID]` against the fake Discord: every command registered with its
// options and permissions, written only when it differs from what Discord has.

const database = useTestDatabase();
const clock = fixedClock(new Date('2026-11-29T10:00:00Z'));
let fake: FakeDiscord;
beforeAll(async () => {
  fake = await startFakeDiscord();
});
afterAll(() => fake.close());

const admin = () => cli(() => database.db, clock, { applicationCommands: createApplicationCommands(fakeDiscordRest(fake)) });
const writes = () => fake.requests.filter((r) => r.method === 'PUT' && r.path.includes('/commands'));
const MODERATE_MEMBERS = String(1n << 40n);

describe('discord commands sync (global)', () => {
  it('registers every command with its options and permissions, then a second run writes nothing and says unchanged', async () => {
    const first = await admin()('discord', 'commands', 'sync');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout.split('\n')[0]).toBe(`Synced global commands of application ${fake.state.bot.id} (18 added, 0 changed, 0 removed, 0 unchanged)`);
    expect(first.stdout).toContain('  + /rank  added');
    expect(first.stdout).toContain('  + "Open a ticket about this message" (message menu)  added');
    expect(writes()).toHaveLength(1);

    const registered = registeredCommands(fake.state);
    const byName = (name: string) => registered.find((c) => c.name === name)!;
    expect(registered.map((c) => [c.type, c.name])).toEqual([
      [1, 'rank'], [1, 'leaderboard'], [1, 'balance'], [1, 'shop'], [1, 'buy'], [1, 'invites'], [1, 'ticket'], [1, 'apply'], [1, 'case'],
      [1, 'warn'], [1, 'timeout'], [1, 'untimeout'], [1, 'kick'], [1, 'ban'], [1, 'unban'], [1, 'giveaway'],
      [3, 'Open a ticket about this message'], [2, 'Moderation history'],
    ]);
    for (const c of registered) expect(c.contexts).toEqual([0]);
    expect(byName('rank')).toMatchObject({ default_member_permissions: null, options: [{ type: 6, name: 'member', description: 'The member to look up (default: you)' }] });
    expect(byName('leaderboard').options).toEqual([
      { type: 3, name: 'board', description: 'Which board (default: levels)', choices: [{ name: 'Levels', value: 'levels' }, { name: 'Invites', value: 'invites' }] },
      { type: 4, name: 'page', description: 'The page (default: 1)', min_value: 1, max_value: 1000 },
    ]);
    expect(byName('buy').options).toEqual([{ type: 3, name: 'item', description: 'The item to buy', required: true, autocomplete: true, max_length: 100 }]);
    expect(byName('apply').options).toEqual([expect.objectContaining({ name: 'form', required: true, autocomplete: true })]);
    expect(byName('case')).toMatchObject({ default_member_permissions: MODERATE_MEMBERS, options: [{ type: 4, name: 'number', description: 'The case number', required: true, min_value: 1, max_value: 999_999_999 }] });
    expect(byName('Moderation history')).toMatchObject({ type: 2, description: '', default_member_permissions: MODERATE_MEMBERS });
    // Staff commands: hidden from members without the permission each action needs (the bot checks it again).
    expect(['warn', 'timeout', 'untimeout', 'kick', 'ban', 'unban', 'giveaway'].map((n) => [n, byName(n).default_member_permissions])).toEqual([
      ['warn', MODERATE_MEMBERS], ['timeout', MODERATE_MEMBERS], ['untimeout', MODERATE_MEMBERS], ['kick', String(1n << 1n)], ['ban', String(1n << 2n)], ['unban', String(1n << 2n)], ['giveaway', String(1n << 5n)],
    ]);
    expect(byName('warn').options).toEqual([
      { type: 6, name: 'member', description: 'The member to warn', required: true },
      { type: 3, name: 'reason', description: 'Shown in the case, the mod log and the member’s DM', required: true, min_length: 1, max_length: 500 },
    ]);
    const optionsOf = (name: string) => (byName(name) as { options?: Array<Record<string, unknown>> }).options!;
    expect(optionsOf('timeout').map((o) => [o.name, o.type, o.required ?? false])).toEqual([['member', 6, true], ['duration', 3, true], ['reason', 3, true]]);
    expect(optionsOf('ban')[2]).toMatchObject({ type: 4, name: 'delete_messages', choices: expect.arrayContaining([{ name: 'Previous 7 days', value: 604_800 }]) });
    expect(optionsOf('unban')[0]).toMatchObject({ type: 6, name: 'user', required: true });
    const giveaway = byName('giveaway').options as Array<{ type: number; name: string; options?: Array<Record<string, unknown>> }>;
    expect(giveaway.map((o) => [o.type, o.name])).toEqual([[1, 'start'], [1, 'end'], [1, 'reroll']]);
    expect(giveaway[0]!.options![0]).toMatchObject({ type: 7, name: 'channel', required: true, channel_types: [0, 5] });
    expect(giveaway[1]!.options).toEqual([expect.objectContaining({ type: 3, name: 'giveaway', required: true, autocomplete: true })]);
    expect(giveaway[2]!.options![1]).toMatchObject({ type: 4, name: 'count', min_value: 1, max_value: 50 });

    const second = await admin()('discord', 'commands', 'sync', '--json');
    expect(second.json()).toMatchObject({ written: false, scope: { guildId: null } });
    expect(second.json().commands.every((c: { change: string }) => c.change === 'unchanged')).toBe(true);
    expect(writes()).toHaveLength(1);
    expect((await admin()('discord', 'commands', 'sync')).stdout.split('\n')[0]).toBe(`Already in sync: global commands of application ${fake.state.bot.id} (0 added, 0 changed, 0 removed, 18 unchanged)`);
  });

  it('names what changed on Discord since (an edited description, a command the code no longer has) and writes once', async () => {
    const old = COMMAND_DEFINITIONS.map((d) => (d.name === 'rank' ? { ...d, description: 'An older description' } : d));
    await createApplicationCommands(fakeDiscordRest(fake)).overwrite(fake.state.bot.id, undefined, [...old, { name: 'daily', description: 'Old command' }]);
    const before = writes().length;
    const res = await admin()('discord', 'commands', 'sync');
    expect(res.stdout.split('\n')[0]).toBe(`Synced global commands of application ${fake.state.bot.id} (0 added, 1 changed, 1 removed, 17 unchanged)`);
    expect(res.stdout).toContain('  ~ /rank  changed');
    expect(res.stdout).toContain('  - /daily  removed');
    expect(writes()).toHaveLength(before + 1);
    expect(registeredCommands(fake.state).map((c) => c.name)).not.toContain('daily');
  });
});

describe('discord commands sync --guild', () => {
  it("registers a server's commands (no contexts: they exist there only), idempotent", async () => {
    const guild = { id: snowflake(), ownerId: snowflake() };
    addGuild(fake.state, serverWithBot(fake, guild, 'Dev Server'));
    const res = await admin()('discord', 'commands', 'sync', '--guild', guild.id, '--json');
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({ written: true, scope: { guildId: guild.id } });
    expect(registeredCommands(fake.state, guild.id)).toHaveLength(18);
    expect(registeredCommands(fake.state, guild.id)[0]).toMatchObject({ name: 'rank', guild_id: guild.id });
    expect(registeredCommands(fake.state, guild.id)[0]).not.toHaveProperty('contexts');
    expect((await admin()('discord', 'commands', 'sync', '--guild', guild.id, '--json')).json().written).toBe(false);
  });

  it('a server the bot is not in is refused with a clear error and nothing is written', async () => {
    const before = writes().length;
    const res = await admin()('discord', 'commands', 'sync', '--guild', snowflake(), '--json');
    expect(res.code).toBe(1);
    expect(res.error()).toEqual({ error: 'BOT_MISSING_PERMISSIONS', message: expect.stringContaining('Discord refused listing the application commands: Missing Access (50001)') });
    expect(writes()).toHaveLength(before);
  });
});

it('on the local platform it says commands live on Discord', async () => {
  const res = await cli(() => database.db, clock)('discord', 'commands', 'sync', '--json');
  expect(res.code).toBe(1);
  expect(res.error()).toEqual({ error: 'NOT_ON_DISCORD', message: 'Commands are registered on Discord: run this with PLATFORM=discord and DISCORD_TOKEN set.' });
});
