import { describe, expect, it } from 'vitest';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { applicationRequests, createTestForm, numbersOf, TEST_ANSWERS, TEST_APPLICANT } from '../../harness/applications.js';
import { createTestKey, snowflake } from '../../harness/fixtures.js';

const NOW = new Date('2026-11-24T12:00:00.000Z');
const { db, app } = useApiTestBed({ now: NOW });
const { setup, seed, list, get } = applicationRequests(db, app, NOW);
const STATUSES = ['pending', 'interview', 'hold', 'accepted', 'denied', 'withdrawn'] as const;

describe('GET /applications/submissions', () => {
  it('lists newest first without answers', async () => {
    const { guild, key, form } = await setup();
    const first = await seed(guild, form);
    const second = await seed(guild, form, { status: 'denied' });
    const res = await list(guild, key);
    expect(res.status).toBe(200);
    const row = await db().selectFrom('application_submissions').selectAll().where('guild_id', '=', guild.id).where('number', '=', second.number).executeTakeFirstOrThrow();
    expect(res.body).toEqual({
      items: [
        {
          number: second.number,
          formId: form.id,
          formTitle: 'Staff application',
          userId: second.userId,
          status: 'denied',
          votes: { up: 0, down: 0 },
          submittedAt: row.submitted_at.toISOString(),
          decidedAt: row.decided_at!.toISOString(),
          decidedBy: row.decided_by,
          reason: 'earlier denied',
        },
        expect.objectContaining({ number: first.number, status: 'pending', decidedAt: null, decidedBy: null, reason: null }),
      ],
      nextCursor: null,
    });
    expect(res.body.items[0]).not.toHaveProperty('answers');
  });

  it('filters by status (each status, open = pending + interview + hold, decided = accepted + denied), formId and userId', async () => {
    const { guild, key, form } = await setup();
    const other = await createTestForm(db(), guild.id, { title: 'Event host' });
    const byStatus: Record<string, number> = {};
    for (const status of STATUSES) byStatus[status] = (await seed(guild, form, { status })).number;
    const userId = snowflake();
    const otherForm = (await seed(guild, other, { userId })).number;

    for (const status of STATUSES) {
      const expected = status === 'pending' ? [otherForm, byStatus.pending!] : [byStatus[status]!];
      expect(numbersOf(await list(guild, key, `status=${status}`))).toEqual(expected);
    }
    expect(numbersOf(await list(guild, key, 'status=open'))).toEqual([otherForm, byStatus.hold!, byStatus.interview!, byStatus.pending!]);
    expect(numbersOf(await list(guild, key, 'status=decided'))).toEqual([byStatus.denied!, byStatus.accepted!]);
    expect(numbersOf(await list(guild, key, `formId=${other.id}`))).toEqual([otherForm]);
    expect(numbersOf(await list(guild, key, `userId=${userId}`))).toEqual([otherForm]);
    expect(numbersOf(await list(guild, key, `status=open&formId=${form.id}`))).toEqual([byStatus.hold!, byStatus.interview!, byStatus.pending!]);
    // A deleted form's submissions keep their title, with formId null.
    await db().deleteFrom('application_forms').where('id', '=', other.id).execute();
    await db().updateTable('application_submissions').set({ form_id: null }).where('guild_id', '=', guild.id).where('number', '=', otherForm).execute();
    expect((await list(guild, key, `userId=${userId}`)).body.items[0]).toMatchObject({ formId: null, formTitle: 'Event host' });
  });

  it('pages with nextCursor as before; pages stay stable while submissions arrive', async () => {
    const { guild, key, form } = await setup();
    const numbers: number[] = [];
    for (let i = 0; i < 5; i++) numbers.push((await seed(guild, form)).number);
    const page1 = await list(guild, key, 'limit=2');
    expect(numbersOf(page1)).toEqual([numbers[4], numbers[3]]);
    expect(page1.body.nextCursor).toBe(String(numbers[3]));
    // New submissions arrive between pages: they are newer, so the next pages neither repeat nor skip.
    await seed(guild, form);
    await seed(guild, form);
    const page2 = await list(guild, key, `limit=2&before=${page1.body.nextCursor}`);
    expect(numbersOf(page2)).toEqual([numbers[2], numbers[1]]);
    const page3 = await list(guild, key, `limit=2&before=${page2.body.nextCursor}`);
    expect(numbersOf(page3)).toEqual([numbers[0]]);
    expect(page3.body.nextCursor).toBeNull();
    // An exactly full last page has no cursor.
    expect((await list(guild, key, `limit=1&before=${numbers[1]}`)).body.nextCursor).toBeNull();
  });

  it.each([
    ['status=open,decided', 'status'],
    ['status=closed', 'status'],
    ['formId=0', 'formId'],
    ['formId=x', 'formId'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['before=0', 'before'],
    ['before=1000000000', 'before'],
    ['userId=12', 'userId'],
  ])('answers 400 INVALID_REQUEST for %s', async (query, path) => {
    const { guild, key } = await setup();
    const res = await list(guild, key, query);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'INVALID_REQUEST', issues: [expect.objectContaining({ location: 'query', path })] });
  });

  it('needs applications:read and the Applications feature', async () => {
    const { guild } = await setup();
    const { key } = await createTestKey(db(), guild, { scopes: ['applications:write'] });
    expect((await list(guild, key)).body).toMatchObject({ error: 'INSUFFICIENT_SCOPE', required: 'applications:read' });
    const off = await setup({ features: [] });
    expect((await list(off.guild, off.key)).status).toBe(409);
  });
});

describe('GET /applications/submissions/{number}', () => {
  it('answers the SubmissionDetail with answers, applicant snapshot, applying and failedActions', async () => {
    const { guild, key, form } = await setup();
    const { number, userId } = await seed(guild, form, { status: 'hold' });
    const row = await db().selectFrom('application_submissions').selectAll().where('guild_id', '=', guild.id).where('number', '=', number).executeTakeFirstOrThrow();
    const res = await get(guild, key, number);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      number,
      formId: form.id,
      formTitle: 'Staff application',
      userId,
      status: 'hold',
      votes: { up: 0, down: 0 },
      submittedAt: row.submitted_at.toISOString(),
      decidedAt: null,
      decidedBy: null,
      reason: null,
      answers: TEST_ANSWERS,
      applicant: TEST_APPLICANT,
      applying: false,
      failedActions: [],
    });
  });

  it('answers 404 APPLICATION_NOT_FOUND for an unknown number or another server\'s submission, 400 for a malformed one', async () => {
    const { guild, key, form } = await setup();
    const other = await setup();
    await seed(other.guild, other.form);
    const { number } = await seed(other.guild, other.form);
    await seed(guild, form);
    const missing = await get(guild, key, 999);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'APPLICATION_NOT_FOUND', message: expect.any(String) });
    // Numbers are per server: #2 exists on the other server only.
    expect(number).toBe(2);
    expect((await get(guild, key, number)).body).toMatchObject({ error: 'APPLICATION_NOT_FOUND' });
    expect((await get(other.guild, other.key, number)).status).toBe(200);
    for (const bad of ['0', 'abc', '-1', '1000000000']) {
      const res = await get(guild, key, bad);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'INVALID_REQUEST', issues: [expect.objectContaining({ location: 'path', path: 'number' })] });
    }
  });
});
