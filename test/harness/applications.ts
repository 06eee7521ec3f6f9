import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import { insertForm, type FormRecord, type NewForm } from '../../db/applications/forms.js';
import type { ApplicantSnapshot, SubmissionAnswer, SubmissionStatus } from '../../db/applications/submissions.js';
import type { Database } from '../../db/schema.js';
import { createForm } from '../../src/applications/createForm.js';
import { fileSubmission } from '../../src/applications/fileSubmission.js';
import { FEATURES, type Feature } from '../../src/core/features.js';
import type { Scope } from '../../src/core/scopes.js';
import { bearer, createTestGuild, createTestKey, snowflake, type TestGuild } from './fixtures.js';
import type { TestResponse } from './httpClient.js';
import { countWrites } from './rows.js';
import type { TestApp } from './testApp.js';

// Application forms and submissions as the bot stores them, for the applications tests.

export const TEST_ANSWERS: SubmissionAnswer[] = [
  { id: 'age', type: 'number', label: 'How old are you?', text: '24' },
  { id: 'why', type: 'paragraph', label: 'Why do you want to join the staff?', text: 'I help out every day.' },
];

export const TEST_APPLICANT: ApplicantSnapshot = {
  accountCreatedAt: '2020-01-02T03:04:05.000Z',
  joinedAt: '2025-06-01T00:00:00.000Z',
  roleIds: [],
  level: 12,
};

export function createTestForm(db: Kysely<Database>, guildId: string, f: Partial<NewForm> = {}): Promise<FormRecord> {
  return db.transaction().execute((trx) =>
    insertForm(trx, {
      guildId,
      title: 'Staff application',
      description: 'Apply to join the staff team.',
      open: true,
      opensAt: null,
      closesAt: null,
      questions: [
        { id: 'age', type: 'number', label: 'How old are you?', required: true },
        { id: 'why', type: 'paragraph', label: 'Why do you want to join the staff?', required: true },
      ],
      acceptRoleIds: [],
      removeRoleIds: [],
      reapplyCooldownSeconds: 7 * 86_400,
      announceChannelId: null,
      reviewChannelId: null,
      createdAt: new Date('2026-11-01T00:00:00.000Z'),
      ...f,
    }),
  );
}

/** An open form of one question, created as the console creates it: what a panel test shows a button of. */
export function createPanelForm(db: Kysely<Database>, guildId: string, title: string, at: Date): Promise<FormRecord> {
  return db.transaction().execute((trx) =>
    createForm(trx, {
      guildId,
      title,
      description: '',
      open: true,
      opensAt: null,
      closesAt: null,
      questions: [{ id: 'why', type: 'paragraph', label: 'Why?', required: true }],
      acceptRoleIds: [],
      removeRoleIds: [],
      reapplyCooldownSeconds: 0,
      announceChannelId: null,
      reviewChannelId: null,
      at,
      actor: { type: 'system' },
    }),
  );
}

/** Files a submission (row + `applications.submitted`), then moves it to `status`. */
export async function fileTestSubmission(
  db: Kysely<Database>,
  guildId: string,
  s: { form: { id: number; title: string }; userId?: string; status?: SubmissionStatus; answers?: SubmissionAnswer[]; applicant?: ApplicantSnapshot; at: Date },
) {
  const userId = s.userId ?? snowflake();
  const { number, event } = await db.transaction().execute((trx) =>
    fileSubmission(trx, { guildId, form: s.form, userId, answers: s.answers ?? TEST_ANSWERS, applicant: s.applicant ?? TEST_APPLICANT, at: s.at }),
  );
  const status = s.status ?? 'pending';
  if (status !== 'pending') {
    const decided = status === 'accepted' || status === 'denied';
    await db
      .updateTable('application_submissions')
      .set({ status, ...(decided ? { decided_at: s.at, decided_by: snowflake(), reason: `earlier ${status}` } : {}) })
      .where('guild_id', '=', guildId)
      .where('number', '=', number)
      .execute();
  }
  return { number, userId, event };
}

/** The applications API of `app` on a server with every feature and an applications key; submissions seeded a second apart. */
export function applicationRequests(db: () => Kysely<Database>, app: TestApp, now: Date) {
  async function setup(options: { features?: Feature[]; scopes?: Scope[] } = {}) {
    const guild = await createTestGuild(db(), { features: options.features ?? [...FEATURES] });
    const created = await createTestKey(db(), guild, { scopes: options.scopes ?? ['applications:read', 'applications:write'], name: 'applications key' });
    const form = await createTestForm(db(), guild.id);
    return { guild, key: created.key, keyId: created.id, form };
  }

  let tick = 0;
  const seed = (guild: TestGuild, form: { id: number; title: string }, options: { status?: SubmissionStatus; userId?: string } = {}) =>
    fileTestSubmission(db(), guild.id, { form, ...options, at: new Date(now.getTime() - 86_400_000 + ++tick * 1000) });

  const list = (guild: TestGuild, key: string, query = '') =>
    app.http('GET', `/guilds/${guild.id}/applications/submissions${query ? `?${query}` : ''}`, { headers: bearer(key) });
  const get = (guild: TestGuild, key: string, number: number | string) =>
    app.http('GET', `/guilds/${guild.id}/applications/submissions/${number}`, { headers: bearer(key) });
  const decide = (guild: TestGuild, key: string, number: number | string, body: unknown, idempotencyKey?: string) =>
    app.http('POST', `/guilds/${guild.id}/applications/submissions/${number}/decision`, {
      headers: { ...bearer(key), ...(idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey }) },
      body,
    });

  /** Everything a decision writes: the submissions, events, audit rows, Idempotency-Key records. */
  async function snapshot(guildId: string) {
    // workflow_started_at is left out: the start after the response sets it whenever it gets there.
    const submissions = await db()
      .selectFrom('application_submissions')
      .selectAll()
      .select((eb) => eb.val(null).as('workflow_started_at'))
      .where('guild_id', '=', guildId)
      .orderBy('number')
      .execute();
    return { submissions, writes: await countWrites(db(), guildId) };
  }

  /** Runs `act` (which asserts the refusal) and asserts that it changed nothing. */
  async function refused(guildId: string, act: () => Promise<void>) {
    const before = await snapshot(guildId);
    await act();
    expect(await snapshot(guildId)).toEqual(before);
  }

  const auditRows = (guildId: string) =>
    db().selectFrom('audit_log').selectAll().where('guild_id', '=', guildId).where('action', 'like', 'applications.%').orderBy('id').execute();

  return { setup, seed, list, get, decide, snapshot, refused, auditRows };
}

export const numbersOf = (res: TestResponse): number[] => res.body.items.map((s: { number: number }) => s.number);
