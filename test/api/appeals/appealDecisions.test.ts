import { describe, expect, it } from 'vitest';
import { addAppealMessage, findAppeal, type AppealAnswer } from '../../../db/appeals/appeals.js';
import { saveAppealSettings } from '../../../db/appeals/settings.js';
import { bearer, snowflake } from '../../harness/fixtures.js';
import { countWrites } from '../../harness/rows.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { appealRequests, CLOSED_STATUSES, DECIDED, VERBS, type Verb } from '../../harness/appeals.js';

// Approve and reject over HTTP, and deciding an appeal that is not open.
const NOW = new Date('2026-11-22T12:00:00.000Z');
const DAY_MS = 86_400_000;

// Decisions start their workflow on a task queue nobody polls: the HTTP layer is what is under test
// here, so `applying` stays true and no effect of the decision changes rows behind the test's back.
const { db, app } = useApiTestBed({ now: NOW, temporal: true });

const { setup, seedAppeal, seedMany, getAppeal, decide, refused, auditRows, staffMessages } = appealRequests(db, app, NOW);

describe('POST /appeals/{number}/approve and /reject', () => {
  it.each(VERBS)('%s: 202 AppealDetail decided at once, applying; reason kept as a staff message; audit row', async (verb) => {
    const { guild, key, keyId } = await setup();
    const userId = snowflake();
    const at = new Date('2026-11-21T09:00:00.000Z');
    const answers: AppealAnswer[] = [{ id: 'why', type: 'paragraph', label: 'Why?', value: 'I changed.' }];
    const { number } = await seedAppeal(guild, { userId, userTag: 'appellant', banCaseNumber: 3, banReason: 'spam', answers, at });
    await addAppealMessage(db(), { guildId: guild.id, number, author: 'user', authorId: userId, text: 'Please.', at });
    await addAppealMessage(db(), { guildId: guild.id, number, author: 'staff', authorId: snowflake(), text: 'internal note', internal: true, at });
    const before = await countWrites(db(), guild.id);

    const res = await decide(guild, key, number, verb, { body: { reason: 'Decided by the team.' } });
    expect(res.status).toBe(202);
    const expected = {
      number,
      userId,
      userTag: 'appellant',
      status: DECIDED[verb],
      banCaseNumber: 3,
      claimedBy: null,
      decidedBy: null,
      decidedAt: NOW.toISOString(),
      reason: 'Decided by the team.',
      createdAt: at.toISOString(),
      lastActivityAt: NOW.toISOString(),
      banReason: 'spam',
      answers,
      messages: [
        { author: 'user', authorId: userId, text: 'Please.', createdAt: at.toISOString() },
        { author: 'staff', authorId: null, text: 'Decided by the team.', createdAt: NOW.toISOString() },
      ],
      applying: true,
      failedAction: null,
    };
    expect(res.body).toEqual(expected);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    // What a GET shows afterwards is what the 202 said (no worker applies it here).
    expect((await getAppeal(guild, key, number)).body).toEqual(expected);

    const row = await findAppeal(db(), guild.id, number);
    expect(row).toMatchObject({
      status: DECIDED[verb],
      decidedBy: null,
      decidedAt: NOW,
      decidedWithApiKeyId: keyId,
      reason: 'Decided by the team.',
      applying: true,
      failedAction: null,
      reappealAfter: verb === 'reject' ? new Date(NOW.getTime() + 30 * DAY_MS) : null,
    });
    expect(await staffMessages(guild.id, number)).toEqual([
      { author: 'staff', author_id: null, text: 'Decided by the team.', internal: false, created_at: NOW },
    ]);
    const audit = await auditRows(guild.id);
    expect(audit).toEqual([
      expect.objectContaining({
        actor_type: 'api_key',
        actor_id: guild.ownerId,
        api_key_id: keyId,
        action: `appeals.${verb}`,
        target_type: 'appeal',
        target_id: String(number),
        request_id: res.headers['x-request-id'],
        data: { userId, previousStatus: 'open', reason: 'Decided by the team.' },
      }),
    ]);
    // One audit row; no event (appeal decisions emit none) and no Idempotency-Key record without the header.
    expect(await countWrites(db(), guild.id)).toEqual({ ...before, audit: before.audit + 1 });
  });

  it.each(VERBS)('%s decides a question appeal too', async (verb) => {
    const { guild, key } = await setup();
    const { number, userId } = await seedAppeal(guild, { status: 'question' });
    const res = await decide(guild, key, number, verb);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ number, status: DECIDED[verb], applying: true, reason: null, decidedAt: NOW.toISOString() });
    const [audit] = await auditRows(guild.id);
    expect(audit!.data).toEqual({ userId, previousStatus: 'question', reason: null });
  });

  it.each([
    ['approve', 'no body', undefined],
    ['approve', 'an empty object', {}],
    ['approve', 'a null reason', { reason: null }],
    ['reject', 'no body', undefined],
    ['reject', 'an empty object', {}],
    ['reject', 'a null reason', { reason: null }],
  ] as const)('%s with %s: 202 without a reason and without a staff message', async (verb, _label, body) => {
    const { guild, key } = await setup();
    const { number, userId } = await seedAppeal(guild);
    await addAppealMessage(db(), { guildId: guild.id, number, author: 'user', authorId: userId, text: 'Hi.', at: NOW });
    const res = await decide(guild, key, number, verb, { body });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ number, status: DECIDED[verb], reason: null, applying: true });
    expect(res.body.messages).toEqual([{ author: 'user', authorId: userId, text: 'Hi.', createdAt: NOW.toISOString() }]);
    expect(await staffMessages(guild.id, number)).toEqual([]);
    expect((await findAppeal(db(), guild.id, number))!.reason).toBeNull();
  });

  it.each(VERBS)('%s accepts a reason of exactly 1000 characters', async (verb) => {
    const { guild, key } = await setup();
    const { number } = await seedAppeal(guild);
    const reason = 'r'.repeat(1000);
    const res = await decide(guild, key, number, verb, { body: { reason } });
    expect(res.status).toBe(202);
    expect(res.body.reason).toBe(reason);
    expect((await staffMessages(guild.id, number)).map((m) => m.text)).toEqual([reason]);
  });

  it('reject: reappeal_after follows the server’s appeal settings', async () => {
    const { guild, key } = await setup();
    await saveAppealSettings(db(), guild.id, { rejectionDm: false, reappealCooldownSeconds: 3600, inviteChannelId: null });
    const { number } = await seedAppeal(guild);
    expect((await decide(guild, key, number, 'reject')).status).toBe(202);
    expect((await findAppeal(db(), guild.id, number))!.reappealAfter).toEqual(new Date(NOW.getTime() + 3600_000));

    await saveAppealSettings(db(), guild.id, { rejectionDm: true, reappealCooldownSeconds: 0, inviteChannelId: null });
    const second = await seedAppeal(guild);
    expect((await decide(guild, key, second.number, 'reject')).status).toBe(202);
    expect((await findAppeal(db(), guild.id, second.number))!.reappealAfter).toEqual(NOW);
  });

  const BAD_BODIES: Array<[string, unknown, string]> = [
    ['a reason of 1001 characters', { reason: 'r'.repeat(1001) }, 'reason'],
    ['an empty reason', { reason: '' }, 'reason'],
    ['a numeric reason', { reason: 5 }, 'reason'],
    ['a boolean reason', { reason: true }, 'reason'],
    ['an array reason', { reason: ['no'] }, 'reason'],
    ['an object reason', { reason: { text: 'no' } }, 'reason'],
    ['an unknown field', { reason: 'ok', notify: false }, ''],
    ['an array body', '[]', ''],
    ['a string body', '"approve"', ''],
    ['a null body', 'null', ''],
    ['a number body', '42', ''],
  ];
  describe.each(VERBS)('%s body validation', (verb) => {
    it.each(BAD_BODIES)('400 INVALID_REQUEST for %s; nothing changes', async (_label, body, path) => {
      const { guild, key } = await setup();
      const { number } = await seedAppeal(guild);
      await refused(guild.id, async () => {
        const res = await decide(guild, key, number, verb, { body, idempotencyKey: `bad-${verb}` });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          error: 'INVALID_REQUEST',
          message: expect.any(String),
          issues: [expect.objectContaining({ location: 'body', path, message: expect.any(String) })],
        });
      });
    });

    it('400 INVALID_JSON for unparsable JSON and 415 for another content type; nothing changes', async () => {
      const { guild, key } = await setup();
      const { number } = await seedAppeal(guild);
      await refused(guild.id, async () => {
        const broken = await decide(guild, key, number, verb, { body: '{"reason": ' });
        expect(broken.status).toBe(400);
        expect(broken.body).toEqual({ error: 'INVALID_JSON', message: expect.any(String) });
        const text = await app.http('POST', `/guilds/${guild.id}/appeals/${number}/${verb}`, {
          headers: { ...bearer(key), 'Content-Type': 'text/plain' },
          body: 'reason=no',
        });
        expect(text.status).toBe(415);
        expect(text.body).toEqual({ error: 'UNSUPPORTED_MEDIA_TYPE', message: expect.any(String) });
      });
    });

    it('404 APPEAL_NOT_FOUND for an unknown number or another server’s appeal; 400 for a malformed one; nothing changes', async () => {
      const { guild, key } = await setup();
      await seedAppeal(guild);
      const other = await setup();
      const foreign = await seedMany(other.guild, ['open', 'open']);
      await refused(other.guild.id, () =>
        refused(guild.id, async () => {
          for (const number of [foreign[1]!, 999_999_999]) {
            const res = await decide(guild, key, number, verb, { body: { reason: 'x' }, idempotencyKey: 'missing' });
            expect(res.status, String(number)).toBe(404);
            expect(res.body).toEqual({ error: 'APPEAL_NOT_FOUND', message: expect.any(String) });
          }
          for (const number of ['abc', '0', '1.5', '1000000000']) {
            const res = await decide(guild, key, number, verb, { body: { reason: 'x' } });
            expect(res.status, number).toBe(400);
            expect(res.body).toEqual({
              error: 'INVALID_REQUEST',
              message: expect.any(String),
              issues: [{ location: 'path', path: 'number', message: expect.any(String) }],
            });
          }
        }),
      );
    });
  });
});

describe('deciding an appeal that is not open', () => {
  const cases = CLOSED_STATUSES.flatMap((status) => VERBS.map((verb) => [status, verb] as const));
  it.each(cases)('a %s appeal: %s answers 409 APPEAL_NOT_OPEN with its status; nothing changes', async (status, verb) => {
    const { guild, key } = await setup();
    const { number } = await seedAppeal(guild, { status });
    await refused(guild.id, async () => {
      for (const body of [undefined, { reason: 'Again.' }]) {
        const res = await decide(guild, key, number, verb, { body, idempotencyKey: `late-${status}` });
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ error: 'APPEAL_NOT_OPEN', message: expect.any(String), status });
      }
    });
    expect((await getAppeal(guild, key, number)).body).toMatchObject({ status, reason: `earlier ${status}`, applying: false });
  });

  it.each(VERBS)('after %s through the API, both decisions answer 409 with the new status', async (verb) => {
    const { guild, key } = await setup();
    const { number } = await seedAppeal(guild);
    const first = await decide(guild, key, number, verb, { body: { reason: 'First.' } });
    expect(first.status).toBe(202);
    await refused(guild.id, async () => {
      for (const again of VERBS) {
        const res = await decide(guild, key, number, again, { body: { reason: 'Second.' } });
        expect(res.status, again).toBe(409);
        expect(res.body).toEqual({ error: 'APPEAL_NOT_OPEN', message: expect.any(String), status: DECIDED[verb] });
      }
    });
    expect((await getAppeal(guild, key, number)).body).toEqual(first.body);
  });

  it('approve and reject sent at once: one 202, one 409 APPEAL_NOT_OPEN; one decision recorded', async () => {
    const { guild, key } = await setup();
    const numbers = await seedMany(guild, ['open', 'question', 'open', 'open', 'question']);
    const auditBefore = (await countWrites(db(), guild.id)).audit;
    const results = await Promise.all(
      numbers.map((number) =>
        Promise.all([
          decide(guild, key, number, 'approve', { body: { reason: `approve ${number}` } }),
          decide(guild, key, number, 'reject', { body: { reason: `reject ${number}` } }),
        ]),
      ),
    );
    for (const [i, [approve, reject]] of results.entries()) {
      const number = numbers[i]!;
      expect([approve.status, reject.status].sort(), String(number)).toEqual([202, 409]);
      const [winner, loser] = approve.status === 202 ? [approve, reject] : [reject, approve];
      const verb: Verb = winner === approve ? 'approve' : 'reject';
      expect(winner.body).toMatchObject({ number, status: DECIDED[verb], reason: `${verb} ${number}`, applying: true });
      expect(loser.body).toEqual({ error: 'APPEAL_NOT_OPEN', message: expect.any(String), status: DECIDED[verb] });
      const row = await findAppeal(db(), guild.id, number);
      expect(row).toMatchObject({ status: DECIDED[verb], reason: `${verb} ${number}` });
      expect((await staffMessages(guild.id, number)).map((m) => m.text)).toEqual([`${verb} ${number}`]);
      const audit = (await auditRows(guild.id)).filter((a) => a.target_id === String(number));
      expect(audit.map((a) => a.action)).toEqual([`appeals.${verb}`]);
    }
    expect((await countWrites(db(), guild.id)).audit).toBe(auditBefore + numbers.length);
  });
});
