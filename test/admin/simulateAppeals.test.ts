import { describe, expect, it } from 'vitest';
import { banPlatformUser } from '../../db/platform/moderation.js';
import { recordCase } from '../../src/moderation/recordCase.js';
import { snowflake } from '../harness/fixtures.js';
import { newTestCase } from '../harness/modCases.js';
import { cliGuild } from './cli.js';
import { useSimulateBed } from './simulateBed.js';

const NOW = new Date('2026-11-22T10:00:00Z');
const { database, admin, eventsOf, auditOf } = useSimulateBed(NOW);

describe('simulate appeal-file', () => {
  const ANSWERS = [
    { id: 'why', type: 'paragraph', label: 'Why were you banned?', value: 'I posted links.' },
    { id: 'agree', type: 'checkbox', label: 'I read the rules', value: true },
  ];

  /** A guild where `userId` was banned by a moderation case (case number returned). */
  async function bannedUser(features = 'all') {
    const { id } = await cliGuild(admin, { features });
    const userId = snowflake();
    await banPlatformUser(database.db, { guildId: id, userId, reason: 'platform reason' });
    const { number } = await database.db.transaction().execute((trx) =>
      recordCase(
        trx,
        newTestCase(id, { action: 'ban', userId, userTag: 'linky', reason: 'Scam links', createdAt: new Date(NOW.getTime() - 86_400_000) }),
        { type: 'system' },
      ),
    );
    return { guildId: id, userId, caseNumber: number };
  }

  const file = (guildId: string, userId: string, answers: unknown = ANSWERS, ...extra: string[]) =>
    admin('simulate', 'appeal-file', '--guild', guildId, '--user', userId, '--answers', typeof answers === 'string' ? answers : JSON.stringify(answers), ...extra);

  it('files the appeal about the latest ban case with its audit row and appeals.submitted (JSON)', async () => {
    const { guildId, userId, caseNumber } = await bannedUser();
    const res = await file(guildId, userId, ANSWERS, '--json');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const appeal = await database.db.selectFrom('appeals').selectAll().where('guild_id', '=', guildId).executeTakeFirstOrThrow();
    expect(appeal).toMatchObject({
      number: 1,
      user_id: userId,
      user_tag: 'linky',
      status: 'open',
      ban_case_number: caseNumber,
      ban_reason: 'Scam links',
      answers: ANSWERS,
      created_at: NOW,
      last_activity_at: NOW,
    });
    expect(await auditOf(guildId, 'appeals.file')).toMatchObject([{ actor_type: 'operator', actor_id: 'alice', target_type: 'appeal', target_id: '1' }]);
    const events = await eventsOf(guildId, 'appeals.submitted');
    const data = { appealNumber: 1, userId, banCaseNumber: caseNumber, answers: ANSWERS, createdAt: NOW.toISOString() };
    expect(events).toEqual([{ id: expect.stringMatching(/^evt_/), createdAt: NOW, data }]);
    expect(res.json()).toEqual({
      number: 1,
      userId,
      userTag: 'linky',
      banCaseNumber: caseNumber,
      banReason: 'Scam links',
      answers: ANSWERS,
      status: 'open',
      createdAt: NOW.toISOString(),
      events: [{ id: events[0]!.id, type: 'appeals.submitted', createdAt: NOW.toISOString(), data }],
      fanout: 'relay',
    });
  });

  it('takes the platform ban reason when no ban case exists, and says so in text', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const userId = snowflake();
    await banPlatformUser(database.db, { guildId: id, userId, reason: 'banned by hand' });
    const res = await file(id, userId);
    expect(res.code).toBe(0);
    expect(res.stdout.split('\n')[0]).toBe(`User ${userId} filed appeal 1 in guild ${id}.`);
    expect(await database.db.selectFrom('appeals').select(['ban_case_number', 'ban_reason', 'user_tag']).where('guild_id', '=', id).execute()).toEqual([
      { ban_case_number: null, ban_reason: 'banned by hand', user_tag: null },
    ]);
    expect((await eventsOf(id, 'appeals.submitted'))[0]!.data.banCaseNumber).toBeNull();
  });

  it('allows one appeal waiting for a decision, and none during the re-appeal cooldown after a rejection (exit 1)', async () => {
    const { guildId, userId } = await bannedUser();
    expect((await file(guildId, userId)).code).toBe(0);
    const second = await file(guildId, userId, ANSWERS, '--json');
    expect(second.code).toBe(1);
    expect(second.error()).toEqual({ error: 'APPEAL_ALREADY_OPEN', message: `User ${userId} already has appeal 1 waiting for a decision.` });

    // Staff asked a question: still waiting.
    await database.db.updateTable('appeals').set({ status: 'question' }).where('guild_id', '=', guildId).execute();
    expect((await file(guildId, userId, ANSWERS, '--json')).error().error).toBe('APPEAL_ALREADY_OPEN');

    const cooldownEnd = new Date(NOW.getTime() + 3_600_000);
    await database.db.updateTable('appeals').set({ status: 'rejected', decided_at: NOW, reappeal_after: cooldownEnd }).where('guild_id', '=', guildId).execute();
    const cooling = await file(guildId, userId, ANSWERS, '--json');
    expect(cooling.code).toBe(1);
    expect(cooling.error()).toEqual({
      error: 'REAPPEAL_COOLDOWN',
      message: `User ${userId} may appeal again from ${cooldownEnd.toISOString()} (re-appeal cooldown after a rejection).`,
    });
    expect(await eventsOf(guildId, 'appeals.submitted')).toHaveLength(1);

    await database.db.updateTable('appeals').set({ reappeal_after: new Date(NOW.getTime() - 1000) }).where('guild_id', '=', guildId).execute();
    const again = await file(guildId, userId, ANSWERS, '--json');
    expect(again.code).toBe(0);
    expect(again.json().number).toBe(2);
  });

  it('refuses a user who is not banned, and a guild without Ban appeals (exit 1)', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const member = snowflake();
    await admin('member', 'add', '--guild', id, '--user', member);
    const notBanned = await file(id, member, ANSWERS, '--json');
    expect(notBanned.code).toBe(1);
    expect(notBanned.error()).toEqual({ error: 'NOT_BANNED', message: `User ${member} is not banned from guild ${id}; only banned users appeal.` });

    const off = await bannedUser('bank,moderation');
    const disabled = await file(off.guildId, off.userId, ANSWERS, '--json');
    expect(disabled.code).toBe(1);
    expect(disabled.error()).toEqual({ error: 'FEATURE_DISABLED', message: `The Ban appeals feature is disabled in guild ${off.guildId}.` });
    expect(await database.db.selectFrom('appeals').selectAll().where('guild_id', 'in', [id, off.guildId]).execute()).toEqual([]);
  });

  it.each([
    ['not JSON', '[{"id":', /^--answers must be JSON \(/],
    ['not an array', { id: 'why' }, /^--answers must be an array of 1 to 25 \{id, type, label, value\}: /],
    ['empty', [], /^--answers must be an array of 1 to 25/],
    ['an answer without a value', [{ id: 'why', type: 'paragraph', label: 'Why?' }], /\[0\.value\] a value is required/],
    ['an unknown field', [{ ...ANSWERS[0], extra: 1 }], /^--answers must be an array/],
    ['repeated ids', [ANSWERS[0], ANSWERS[0]], /answer ids must be unique/],
  ])('refuses answers that are %s with exit code 2', async (_, answers, message) => {
    const { guildId, userId } = await bannedUser();
    const res = await file(guildId, userId, answers, '--json');
    expect(res.code).toBe(2);
    expect(res.error()).toEqual({ error: 'INVALID_ARGUMENT', message: expect.stringMatching(message) });
  });

  it('needs --answers (exit code 2)', async () => {
    const { guildId, userId } = await bannedUser();
    const res = await admin('simulate', 'appeal-file', '--guild', guildId, '--user', userId, '--json');
    expect(res.code).toBe(2);
    expect(res.error()).toEqual({ error: 'MISSING_FLAG', message: '`simulate appeal-file` needs --answers JSON.' });
  });
});
