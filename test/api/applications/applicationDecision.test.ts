import { describe, expect, it } from 'vitest';
import { findSubmission } from '../../../db/applications/submissions.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { applicationRequests, TEST_ANSWERS, TEST_APPLICANT } from '../../harness/applications.js';
import { createTestKey } from '../../harness/fixtures.js';
import { countWrites } from '../../harness/rows.js';

const NOW = new Date('2026-11-24T12:00:00.000Z');
const WEEK_MS = 7 * 86_400_000;

// Decisions start their workflow on a task queue nobody polls: the HTTP layer is what is under test here,
// so `applying` stays true and no effect of the decision changes rows behind the test's back.
const { db, app } = useApiTestBed({ now: NOW, temporal: true });
const { setup, seed, get, decide, refused, auditRows } = applicationRequests(db, app, NOW);

describe('POST /applications/submissions/{number}/decision', () => {
  it.each([
    ['accepted', 'pending'],
    ['denied', 'pending'],
    ['accepted', 'interview'],
    ['denied', 'hold'],
  ] as const)('%s from %s: 202 SubmissionDetail decided at once, applying; audit row; cooldown after a denial', async (decision, from) => {
    const { guild, key, keyId, form } = await setup();
    const { number, userId } = await seed(guild, form, { status: from });
    const before = await countWrites(db(), guild.id);

    const res = await decide(guild, key, number, { decision, reason: 'Decided by the team.' });
    expect(res.status).toBe(202);
    const row = await findSubmission(db(), guild.id, number);
    const expected = {
      number,
      formId: form.id,
      formTitle: 'Staff application',
      userId,
      status: decision,
      votes: { up: 0, down: 0 },
      submittedAt: row!.submittedAt.toISOString(),
      decidedAt: NOW.toISOString(),
      decidedBy: null,
      reason: 'Decided by the team.',
      answers: TEST_ANSWERS,
      applicant: TEST_APPLICANT,
      applying: true,
      failedActions: [],
    };
    expect(res.body).toEqual(expected);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect((await get(guild, key, number)).body).toEqual(expected);
    expect(row).toMatchObject({
      status: decision,
      decidedAt: NOW,
      decidedBy: null,
      decidedWithApiKeyId: keyId,
      applying: true,
      reapplyAfter: decision === 'denied' ? new Date(NOW.getTime() + WEEK_MS) : null,
    });
    expect(await auditRows(guild.id)).toEqual([
      expect.objectContaining({
        actor_type: 'api_key',
        actor_id: guild.ownerId,
        api_key_id: keyId,
        action: 'applications.decide',
        target_type: 'application',
        target_id: String(number),
        data: { userId, decision, previousStatus: from, reason: 'Decided by the team.' },
      }),
    ]);
    // No event: applications.submitted is the area's only event, and a decision emits none.
    expect(await countWrites(db(), guild.id)).toEqual({ ...before, audit: before.audit + 1 });
  });

  it('takes no reason (null) and the form\'s own cooldown', async () => {
    const { guild, key, form } = await setup();
    await db().updateTable('application_forms').set({ reapply_cooldown_seconds: 3600 }).where('id', '=', form.id).execute();
    const { number } = await seed(guild, form);
    const res = await decide(guild, key, number, { decision: 'denied' });
    expect(res.body).toMatchObject({ status: 'denied', reason: null });
    expect((await findSubmission(db(), guild.id, number))!.reapplyAfter).toEqual(new Date(NOW.getTime() + 3_600_000));
    const { number: other } = await seed(guild, form);
    expect((await decide(guild, key, other, { decision: 'accepted', reason: null })).body).toMatchObject({ status: 'accepted', reason: null });
  });

  it.each(['accepted', 'denied', 'withdrawn'] as const)('a %s submission answers 409 APPLICATION_NOT_OPEN with its status; nothing changes', async (status) => {
    const { guild, key, form } = await setup();
    const { number } = await seed(guild, form, { status });
    await refused(guild.id, async () => {
      const res = await decide(guild, key, number, { decision: 'accepted' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'APPLICATION_NOT_OPEN', message: expect.any(String), status });
    });
  });

  it('an unknown submission answers 404 APPLICATION_NOT_FOUND; nothing changes', async () => {
    const { guild, key, form } = await setup();
    await seed(guild, form);
    await refused(guild.id, async () => {
      const res = await decide(guild, key, 77, { decision: 'denied' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'APPLICATION_NOT_FOUND', message: expect.any(String) });
    });
  });

  it.each([
    [{}, 'decision'],
    [{ decision: 'approved' }, 'decision'],
    [{ decision: 'withdrawn' }, 'decision'],
    [{ decision: 'accepted', reason: 'x'.repeat(1001) }, 'reason'],
    [{ decision: 'accepted', reason: 5 }, 'reason'],
    [{ decision: 'accepted', note: 'typo' }, ''],
  ])('body %j answers 400 INVALID_REQUEST; nothing changes', async (body, path) => {
    const { guild, key, form } = await setup();
    const { number } = await seed(guild, form);
    await refused(guild.id, async () => {
      const res = await decide(guild, key, number, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'INVALID_REQUEST', issues: [expect.objectContaining({ location: 'body', path })] });
    });
  });

  it('a reason of exactly 1000 characters is accepted', async () => {
    const { guild, key, form } = await setup();
    const { number } = await seed(guild, form);
    expect((await decide(guild, key, number, { decision: 'accepted', reason: 'x'.repeat(1000) })).status).toBe(202);
  });

  it('needs applications:write (403 INSUFFICIENT_SCOPE) and the Applications feature (409 FEATURE_DISABLED); nothing changes', async () => {
    const { guild, form } = await setup();
    const { number } = await seed(guild, form);
    const { key: readOnly } = await createTestKey(db(), guild, { scopes: ['applications:read'] });
    await refused(guild.id, async () => {
      const res = await decide(guild, readOnly, number, { decision: 'accepted' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'INSUFFICIENT_SCOPE', message: expect.any(String), required: 'applications:write' });
    });
    const off = await setup({ features: ['bank'] });
    const { number: offNumber } = await seed(off.guild, off.form);
    await refused(off.guild.id, async () => {
      const res = await decide(off.guild, off.key, offNumber, { decision: 'accepted' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'FEATURE_DISABLED', message: expect.any(String) });
    });
  });

  it('two decisions at once: one wins, the other answers 409 with the winner\'s status', async () => {
    const { guild, key, form } = await setup();
    const { number } = await seed(guild, form);
    const results = await Promise.all([decide(guild, key, number, { decision: 'accepted' }), decide(guild, key, number, { decision: 'denied' })]);
    const won = results.filter((r) => r.status === 202);
    const lost = results.filter((r) => r.status === 409);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.body).toMatchObject({ error: 'APPLICATION_NOT_OPEN', status: won[0]!.body.status });
    expect(await auditRows(guild.id)).toHaveLength(1);
  });
});

describe('Idempotency-Key on the decision', () => {
  it('a replay answers the stored 202 with Idempotent-Replayed and changes nothing, also once the decision is applied', async () => {
    const { guild, key, form } = await setup();
    const { number } = await seed(guild, form);
    const send = () => decide(guild, key, number, { decision: 'accepted', reason: 'Once.' }, `decide-${number}`);
    const first = await send();
    expect(first.status).toBe(202);
    await refused(guild.id, async () => {
      const again = await send();
      expect(again.status).toBe(202);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      const fresh = await decide(guild, key, number, { decision: 'accepted', reason: 'Once.' });
      expect(fresh.body).toMatchObject({ error: 'APPLICATION_NOT_OPEN', status: 'accepted' });
    });
    await db().updateTable('application_submissions').set({ applying: false }).where('guild_id', '=', guild.id).where('number', '=', number).execute();
    await refused(guild.id, async () => {
      const later = await send();
      expect(later.status).toBe(202);
      expect(later.body).toEqual(first.body);
    });
    expect(await auditRows(guild.id)).toHaveLength(1);
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED for the same key with another body or submission; nothing changes', async () => {
    const { guild, key, form } = await setup();
    const { number } = await seed(guild, form);
    const { number: other } = await seed(guild, form);
    expect((await decide(guild, key, number, { decision: 'accepted' }, 'reuse')).status).toBe(202);
    await refused(guild.id, async () => {
      for (const [target, body] of [
        [number, { decision: 'denied' }],
        [number, { decision: 'accepted', reason: 'x' }],
        [other, { decision: 'accepted' }],
      ] as const) {
        const res = await decide(guild, key, target, body, 'reuse');
        expect(res.status).toBe(422);
        expect(res.body).toEqual({ error: 'IDEMPOTENCY_KEY_REUSED', message: expect.any(String) });
      }
    });
  });

  it('a refused request is not stored: the key works again after the problem is fixed', async () => {
    const { guild, key, form } = await setup();
    const { number } = await seed(guild, form);
    expect((await decide(guild, key, number, { decision: 'maybe' }, 'retry')).status).toBe(400);
    expect((await decide(guild, key, number, { decision: 'denied' }, 'retry')).status).toBe(202);
  });
});
