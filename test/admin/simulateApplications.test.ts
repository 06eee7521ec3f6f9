import { describe, expect, it } from 'vitest';
import { upsertPlatformMember } from '../../db/platform/local.js';
import { systemClock } from '../../src/core/clock.js';
import { eventEnvelope } from '../../src/events/contract.js';
import { verifyWebhook } from '../../src/webhooks/verifyWebhook.js';
import { eventually } from '../harness/eventually.js';
import { startReceiver } from '../harness/receiver.js';
import { testGateway, useTestWorker } from '../harness/temporal.js';
import { snowflake } from '../harness/fixtures.js';
import { cli, cliGuild, type CliResult } from './cli.js';
import { useSimulateBed } from './simulateBed.js';

const NOW = new Date('2026-11-24T10:00:00Z');
const { database, admin, eventsOf, auditOf, allEvents } = useSimulateBed(NOW);
const gateway = testGateway();
useTestWorker(() => database.db, gateway);
// As on the dev database: a loopback http:// receiver may be registered, and events start their fan-out at once.
const liveAdmin = cli(() => database.db, systemClock, { temporal: gateway, allowInsecureWebhookUrls: true });

const QUESTIONS = [
  { id: 'age', type: 'number', label: 'How old are you?', required: true },
  { id: 'why', type: 'paragraph', label: 'Why do you want to join?', required: true },
  { id: 'extra', type: 'short', label: 'Anything else?', required: false },
];

async function formGuild(features = 'all', ...extra: string[]) {
  const { id } = await cliGuild(admin, { features });
  const res = await admin('simulate', 'form-create', '--guild', id, '--title', 'Staff application', '--description', 'Join the team.', '--questions', JSON.stringify(QUESTIONS), ...extra, '--json');
  expect(res.stderr).toBe('');
  return { guildId: id, formId: res.json().id as number, created: res };
}

const submit = (guildId: string, formId: number, userId: string, answers: unknown, ...extra: string[]) =>
  admin('simulate', 'application-submit', '--guild', guildId, '--form', String(formId), '--user', userId, '--answers', JSON.stringify(answers), ...extra);

const ANSWERS = [
  { id: 'why', text: 'I help every day.' },
  { id: 'age', text: '24' },
];

function refusedWith(res: CliResult, code: string, exit = 1) {
  expect(res.code).toBe(exit);
  expect(res.error().error).toBe(code);
}

describe('simulate form-create', () => {
  it('creates forms in console order with their settings and an audit row', async () => {
    const roles = [snowflake(), snowflake()];
    const channel = snowflake();
    const { guildId, formId, created } = await formGuild(
      'all',
      '--closes-at',
      '2026-12-31T00:00:00Z',
      '--accept-roles',
      roles.join(','),
      '--reapply-cooldown',
      '3600',
      '--announce-channel',
      channel,
      '--operator',
      'bob',
    );
    expect(created.code).toBe(0);
    expect(created.json()).toEqual({
      id: formId,
      title: 'Staff application',
      description: 'Join the team.',
      open: true,
      opensAt: null,
      closesAt: '2026-12-31T00:00:00.000Z',
      questions: QUESTIONS,
      acceptRoleIds: roles,
      removeRoleIds: [],
      reapplyCooldownSeconds: 3600,
      announceChannelId: channel,
      reviewChannelId: null,
    });
    const second = await admin('simulate', 'form-create', '--guild', guildId, '--title', 'Event host', '--questions', JSON.stringify(QUESTIONS.slice(0, 1)), '--closed', '--json');
    expect(second.json()).toMatchObject({ open: false, description: '' });
    const forms = await database.db.selectFrom('application_forms').select(['id', 'position']).where('guild_id', '=', guildId).orderBy('position').execute();
    expect(forms.map((f) => f.id)).toEqual([formId, second.json().id]);
    expect(await auditOf(guildId, 'applications.formCreate')).toMatchObject([
      { actor_type: 'operator', actor_id: 'bob', target_type: 'application_form', target_id: String(formId) },
      { actor_type: 'operator', actor_id: 'alice' },
    ]);
  });

  it('refuses bad questions, times and unknown guilds', async () => {
    const { id } = await cliGuild(admin, { features: 'all' });
    const create = (questions: unknown, ...extra: string[]) =>
      admin('simulate', 'form-create', '--guild', id, '--title', 'T', '--questions', JSON.stringify(questions), ...extra, '--json');
    refusedWith(await create([]), 'INVALID_ARGUMENT', 2);
    refusedWith(await create([{ id: 'a', type: 'essay', label: 'A' }]), 'INVALID_ARGUMENT', 2);
    refusedWith(await create([{ id: 'a', type: 'short', label: 'A' }, { id: 'a', type: 'short', label: 'B' }]), 'INVALID_FORM');
    refusedWith(await create(QUESTIONS, '--opens-at', '2026-12-02T00:00:00Z', '--closes-at', '2026-12-01T00:00:00Z'), 'INVALID_FORM');
    refusedWith(await create(QUESTIONS, '--opens-at', 'tomorrow'), 'INVALID_ARGUMENT', 2);
    const unknown = await admin('simulate', 'form-create', '--guild', snowflake(), '--title', 'T', '--questions', JSON.stringify(QUESTIONS), '--json');
    refusedWith(unknown, 'GUILD_NOT_FOUND');
    expect(await database.db.selectFrom('application_forms').select('id').where('guild_id', '=', id).execute()).toEqual([]);
  });
});

describe('simulate application-submit', () => {
  it('stores the submission with the applicant snapshot, its audit row and applications.submitted (JSON)', async () => {
    const { guildId, formId } = await formGuild();
    const userId = snowflake();
    const role = snowflake();
    await upsertPlatformMember(database.db, { guildId, userId, username: 'zoe', bot: false, roleIds: [role], joinedAt: new Date('2026-01-01T00:00:00Z') });
    await database.db.insertInto('level_members').values({ guild_id: guildId, user_id: userId, xp: 255, messages: 0, voice_minutes: 0, streak: 0, best_streak: 0, hidden: false, last_xp_at: null } as never).execute();
    const res = await submit(guildId, formId, userId, ANSWERS, '--json');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const stored = [
      { id: 'age', type: 'number', label: 'How old are you?', text: '24' },
      { id: 'why', type: 'paragraph', label: 'Why do you want to join?', text: 'I help every day.' },
    ];
    const events = await eventsOf(guildId, 'applications.submitted');
    expect(events).toEqual([
      {
        id: expect.stringMatching(/^evt_/),
        createdAt: NOW,
        data: {
          submissionNumber: 1,
          formId,
          formTitle: 'Staff application',
          userId,
          answers: stored.map((a) => ({ id: a.id, type: a.type, label: a.label, value: a.text })),
          submittedAt: NOW.toISOString(),
        },
      },
    ]);
    expect(res.json()).toEqual({
      number: 1,
      formId,
      formTitle: 'Staff application',
      userId,
      status: 'pending',
      votes: { up: 0, down: 0 },
      submittedAt: NOW.toISOString(),
      decidedAt: null,
      decidedBy: null,
      reason: null,
      answers: stored,
      applicant: {
        accountCreatedAt: new Date(Number((BigInt(userId) >> 22n) + 1_420_070_400_000n)).toISOString(),
        joinedAt: '2026-01-01T00:00:00.000Z',
        roleIds: [role],
        level: 2,
      },
      applying: false,
      failedActions: [],
      events: [{ id: events[0]!.id, type: 'applications.submitted', createdAt: NOW.toISOString(), data: events[0]!.data }],
      fanout: 'relay',
    });
    expect(await auditOf(guildId, 'applications.submit')).toMatchObject([{ actor_type: 'operator', actor_id: 'alice', target_type: 'application', target_id: '1' }]);
  });

  it('a non-member applies with an empty snapshot; level is null without Levels', async () => {
    const { guildId, formId } = await formGuild('applications');
    const res = await submit(guildId, formId, snowflake(), ANSWERS, '--json');
    expect(res.json().applicant).toMatchObject({ joinedAt: null, roleIds: [], level: null });
  });

  it('refuses by the form\'s rules and changes nothing', async () => {
    const { guildId, formId } = await formGuild();
    const userId = snowflake();
    const before = await allEvents(guildId);
    refusedWith(await submit(guildId, formId, userId, [{ id: 'age', text: '24' }], '--json'), 'INVALID_ANSWERS');
    refusedWith(await submit(guildId, formId, userId, [...ANSWERS, { id: 'nope', text: 'x' }], '--json'), 'INVALID_ANSWERS');
    refusedWith(await submit(guildId, formId, userId, [{ id: 'age', text: '24' }, { id: 'why', text: '   ' }], '--json'), 'INVALID_ANSWERS');
    refusedWith(await submit(guildId, 999, userId, ANSWERS, '--json'), 'FORM_NOT_FOUND');
    refusedWith(await submit(guildId, formId, userId, 'not json', '--json'), 'INVALID_ARGUMENT', 2);
    expect(await allEvents(guildId)).toEqual(before);

    expect((await submit(guildId, formId, userId, ANSWERS)).code).toBe(0);
    refusedWith(await submit(guildId, formId, userId, ANSWERS, '--json'), 'APPLICATION_ALREADY_OPEN');

    const closed = await admin('simulate', 'form-create', '--guild', guildId, '--title', 'Closed', '--questions', JSON.stringify(QUESTIONS), '--closed', '--json');
    refusedWith(await submit(guildId, closed.json().id, userId, ANSWERS, '--json'), 'FORM_CLOSED');
    const later = await admin('simulate', 'form-create', '--guild', guildId, '--title', 'Later', '--questions', JSON.stringify(QUESTIONS), '--opens-at', '2026-12-01T00:00:00Z', '--json');
    refusedWith(await submit(guildId, later.json().id, userId, ANSWERS, '--json'), 'FORM_CLOSED');

    const { guildId: off, formId: offForm } = await formGuild('bank');
    refusedWith(await submit(off, offForm, userId, ANSWERS, '--json'), 'FEATURE_DISABLED');
    expect(await database.db.selectFrom('application_submissions').select('number').where('guild_id', '=', guildId).execute()).toHaveLength(1);
  });

  it('after a denial, not before the form\'s re-apply date', async () => {
    const { guildId, formId } = await formGuild('all', '--reapply-cooldown', '3600');
    const userId = snowflake();
    await submit(guildId, formId, userId, ANSWERS);
    const until = new Date(NOW.getTime() + 60_000);
    await database.db.updateTable('application_submissions').set({ status: 'denied', reapply_after: until }).where('guild_id', '=', guildId).execute();
    const res = await submit(guildId, formId, userId, ANSWERS, '--json');
    refusedWith(res, 'REAPPLY_COOLDOWN');
    expect(res.error().message).toContain(until.toISOString());
    await database.db.updateTable('application_submissions').set({ reapply_after: NOW }).where('guild_id', '=', guildId).execute();
    expect((await submit(guildId, formId, userId, ANSWERS, '--json')).json()).toMatchObject({ number: 2, status: 'pending' });
  });
});

describe('simulate application-vote and application-status', () => {
  it('counts one vote per voter (a new vote replaces theirs) with audit rows', async () => {
    const { guildId, formId } = await formGuild();
    await submit(guildId, formId, snowflake(), ANSWERS);
    const [a, b] = [snowflake(), snowflake()];
    const vote = (voter: string, v: string) => admin('simulate', 'application-vote', '--guild', guildId, '--number', '1', '--voter', voter, '--vote', v, '--json');
    expect((await vote(a, 'up')).json().votes).toEqual({ up: 1, down: 0 });
    expect((await vote(b, 'down')).json().votes).toEqual({ up: 1, down: 1 });
    expect((await vote(b, 'up')).json().votes).toEqual({ up: 2, down: 0 });
    expect(await auditOf(guildId, 'applications.vote')).toHaveLength(3);
    refusedWith(await vote(a, 'sideways'), 'INVALID_ARGUMENT', 2);
    refusedWith(await admin('simulate', 'application-vote', '--guild', guildId, '--number', '9', '--voter', a, '--vote', 'up', '--json'), 'APPLICATION_NOT_FOUND');
  });

  it('moves an open submission to interview, hold or withdrawn; decided or withdrawn ones stay', async () => {
    const { guildId, formId } = await formGuild();
    await submit(guildId, formId, snowflake(), ANSWERS);
    const status = (s: string, n = '1') => admin('simulate', 'application-status', '--guild', guildId, '--number', n, '--status', s, '--json');
    expect((await status('interview')).json()).toMatchObject({ number: 1, status: 'interview' });
    refusedWith(await status('interview'), 'APPLICATION_NOT_OPEN');
    expect((await status('hold')).json()).toMatchObject({ status: 'hold' });
    expect((await status('withdrawn')).json()).toMatchObject({ status: 'withdrawn' });
    refusedWith(await status('hold'), 'APPLICATION_NOT_OPEN');
    refusedWith(await admin('simulate', 'application-vote', '--guild', guildId, '--number', '1', '--voter', snowflake(), '--vote', 'up', '--json'), 'APPLICATION_NOT_OPEN');
    refusedWith(await status('accepted'), 'INVALID_ARGUMENT', 2);
    refusedWith(await status('hold', '5'), 'APPLICATION_NOT_FOUND');
    expect((await auditOf(guildId, 'applications.status')).map((r) => (r.data as { status: string }).status)).toEqual(['interview', 'hold', 'withdrawn']);
  });

  it('simulate --help lists the application commands', async () => {
    const res = await admin('simulate', '--help');
    for (const name of ['form-create', 'application-submit', 'application-vote', 'application-status']) expect(res.stdout).toContain(name);
  });
});

describe('simulate application-submit, through to a webhook receiver', () => {
  it('delivers applications.submitted, signed, with the answers', async () => {
    const receiver = await startReceiver([200]);
    try {
      const { id } = await cliGuild(admin, { features: 'all' });
      const added = await liveAdmin('webhook', 'add', '--guild', id, '--url', receiver.url, '--events', 'applications.submitted', '--json');
      const { secret } = added.json();
      const form = await liveAdmin('simulate', 'form-create', '--guild', id, '--title', 'Staff', '--questions', JSON.stringify([{ id: 'why', type: 'paragraph', label: 'Why?' }]), '--json');
      const userId = snowflake();
      const submitted = await liveAdmin('simulate', 'application-submit', '--guild', id, '--form', String(form.json().id), '--user', userId, '--answers', JSON.stringify([{ id: 'why', text: 'Because.' }]), '--json');
      expect(submitted.json().fanout).toBe('started');

      await eventually(async () => receiver.received.length, (n) => n >= 1);
      const [delivery] = receiver.received;
      expect(verifyWebhook(delivery!.body, delivery!.headers, secret).ok).toBe(true);
      expect(eventEnvelope('applications.submitted').strict().parse(JSON.parse(delivery!.body))).toEqual({
        id: submitted.json().events[0].id,
        type: 'applications.submitted',
        createdAt: expect.any(String),
        guildId: id,
        data: {
          submissionNumber: 1,
          formId: form.json().id,
          formTitle: 'Staff',
          userId,
          answers: [{ id: 'why', type: 'paragraph', label: 'Why?', value: 'Because.' }],
          submittedAt: expect.any(String),
        },
      });
    } finally {
      await receiver.close();
    }
  });
});
