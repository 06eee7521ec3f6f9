import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCase, type NewCase } from '../../db/moderation/cases.js';
import { UNKNOWN_COMMAND_ANSWER } from '../../process/bot/commands/runCommand.js';
import { createApplicationCommands } from '../../src/platform/discord/applicationCommands.js';
import { fakeDiscordRest } from '../harness/fakeDiscordRest.js';
import { commandInteraction } from '../../process/infra/fakeDiscord/index.js';
import { useTestDatabase } from '../harness/database.js';
import { startCommandBed, type CommandBed } from './commandBed.js';

// Staff commands: hidden from members by default_member_permissions, and refused by the bot itself when a server
// opened them to everyone (Integrations settings), from the permissions Discord computed for the invoker.

const NOW = new Date('2026-11-29T12:00:00Z');
const database = useTestDatabase();
const db = () => database.db;
let t: CommandBed;
let staff: string;
let target: string;

beforeAll(async () => {
  t = await startCommandBed(database, NOW, ['moderation']);
  staff = t.member([t.server.roles.staff]);
  target = t.member();
  const base: Omit<NewCase, 'action' | 'reason' | 'createdAt'> = {
    guildId: t.server.id, userId: target, userTag: null, moderatorId: staff, durationSeconds: null, evidence: [], source: 'console', active: false, expiresAt: null, dmStatus: null, apiKey: null, operationId: null,
  };
  await db().transaction().execute(async (trx) => {
    await insertCase(trx, { ...base, action: 'warn', reason: 'Spam in #general', createdAt: new Date('2026-11-20T10:00:00Z') });
    await insertCase(trx, { ...base, action: 'timeout', reason: null, active: true, createdAt: new Date('2026-11-21T10:00:00Z') });
  });
});
afterAll(() => t?.bed.close());

const handled = () => db().selectFrom('handled_interactions').select('interaction_id').execute();
const T1 = Math.floor(Date.parse('2026-11-20T10:00:00Z') / 1000);
const T2 = Math.floor(Date.parse('2026-11-21T10:00:00Z') / 1000);

describe('/case', () => {
  it('shows a case to staff (Administrator holds Timeout Members)', async () => {
    expect(await t.answer({ userId: staff, name: 'case', options: { number: 1 } })).toBe(
      `#1 **warn** of <@${target}> by <@${staff}> <t:${T1}:R>: Spam in #general\nSource: console; 1 event in its timeline.`,
    );
    expect(await t.answer({ userId: staff, name: 'case', options: { number: 99 } })).toBe('There is no moderation case with that number.');
  });

  it('is hidden from a member without the permission: Discord shows it to nobody else', () => {
    expect(() => commandInteraction(t.bed.fake.state, { guildId: t.server.id, userId: t.member(), name: 'case', options: { number: 1 } })).toThrow(/Discord hides "case"/);
  });

  it('is refused by the bot when the server opened it to everyone, and reads nothing', async () => {
    const member = t.member([t.server.roles.member]);
    const before = (await handled()).length;
    const text = await t.answer({ userId: member, name: 'case', options: { number: 1 }, permissionsOverridden: true });
    expect(text).toBe('You need the Timeout Members permission to use this command.');
    expect(text).not.toContain('Spam');
    // Claimed once (so a replay answers nothing twice), and nothing else.
    expect((await handled()).length).toBe(before + 1);
  });
});

describe('"Moderation history" (user menu)', () => {
  it("lists the member's cases, newest first, to staff", async () => {
    expect(await t.answer({ userId: staff, name: 'Moderation history', type: 2, targetId: target })).toBe(
      [`**Moderation history of <@${target}>** (newest first)`, `#2 **timeout** of <@${target}> by <@${staff}> <t:${T2}:R>: no reason given (active)`, `#1 **warn** of <@${target}> by <@${staff}> <t:${T1}:R>: Spam in #general`].join('\n'),
    );
    const clean = t.member();
    expect(await t.answer({ userId: staff, name: 'Moderation history', type: 2, targetId: clean })).toBe(`<@${clean}> has no moderation cases.`);
  });

  it('is refused to a member without the permission even when opened to everyone', async () => {
    expect(await t.answer({ userId: t.member(), name: 'Moderation history', type: 2, targetId: target, permissionsOverridden: true })).toBe(
      'You need the Timeout Members permission to use this command.',
    );
  });

  it('with Moderation off answers so', async () => {
    await t.setFeatures([]);
    try {
      expect(await t.answer({ userId: staff, name: 'Moderation history', type: 2, targetId: target })).toBe('Moderation is turned off on this server.');
    } finally {
      await t.setFeatures(['moderation']);
    }
  });
});

it('a server the service does not serve (blocked) answers so', async () => {
  await db().updateTable('guilds').set({ blocked: true }).where('id', '=', t.server.id).execute();
  try {
    expect(await t.answer({ userId: staff, name: 'case', options: { number: 1 } })).toBe('This server does not use this bot’s features.');
  } finally {
    await db().updateTable('guilds').set({ blocked: false }).where('id', '=', t.server.id).execute();
  }
});

it('a command Discord still shows but the bot no longer has (a stale registration) is answered, not left to fail', async () => {
  await createApplicationCommands(fakeDiscordRest(t.bed.fake)).overwrite(t.bed.fake.state.bot.id, t.server.id, [{ name: 'daily', description: 'Your daily reward' }]);
  expect(await t.answer({ userId: t.member(), name: 'daily' })).toBe(UNKNOWN_COMMAND_ANSWER);
});
