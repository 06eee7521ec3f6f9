import { describe, expect, it } from 'vitest';
import { addTestMember, snowflake } from '../../harness/fixtures.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { createModerationGuild } from '../../harness/moderationGuild.js';
import { ACTIONS, issuesAt, MEMBER_ACTIONS, moderationRequests, VALID_BODY, type Action } from '../../harness/moderationRequests.js';

// The HTTP contract of the moderation actions' requests: bodies, path and MEMBER_NOT_FOUND. No worker polls the
// gateway's task queue: an accepted action stays `pending` (outcomes: test/workflows/moderationAction.test.ts).
const START = new Date('2026-11-22T12:00:20Z');
const { db, app } = useApiTestBed({ now: START, temporal: true });

const { post, writes, refused } = moderationRequests(db, app);

const actionRows = (guildId: string) =>
  db().selectFrom('moderation_actions').selectAll().where('guild_id', '=', guildId).orderBy('requested_at').execute();

const links = (n: number) => Array.from({ length: n }, (_, i) => `https://example.com/${i}.png`);

describe('POST moderation actions: body validation', () => {
  it.each<[Action, string, unknown, string[]]>([
    ['warn', 'no reason', {}, ['reason']],
    ['warn', 'an empty reason', { reason: '' }, ['reason']],
    ['warn', 'a reason of 501 characters', { reason: 'r'.repeat(501) }, ['reason']],
    ['warn', 'a null reason', { reason: null }, ['reason']],
    ['warn', 'a numeric reason', { reason: 5 }, ['reason']],
    ['warn', '6 evidence links', { reason: 'x', evidence: links(6) }, ['evidence']],
    ['warn', 'evidence that is not a link', { reason: 'x', evidence: ['not a link'] }, ['evidence.0']],
    ['warn', 'an ftp evidence link', { reason: 'x', evidence: ['ftp://example.com/a'] }, ['evidence.0']],
    ['warn', 'a javascript: evidence link', { reason: 'x', evidence: ['https://example.com/a', 'javascript:alert(1)'] }, ['evidence.1']],
    ['warn', 'an evidence link of 501 characters', { reason: 'x', evidence: [`https://example.com/${'a'.repeat(481)}`] }, ['evidence.0']],
    ['warn', 'evidence as an object', { reason: 'x', evidence: { url: 'https://example.com/a' } }, ['evidence']],
    ['warn', 'an unknown field', { reason: 'x', durationSeconds: 60 }, ['']],
    ['warn', 'an array body', [], ['']],
    ['warn', 'a null body', null, ['']],
    ['warn', 'a NUL character in the reason', { reason: 'a\u0000b' }, ['reason']],
    ['timeout', 'no durationSeconds', { reason: 'x' }, ['durationSeconds']],
    ['timeout', 'durationSeconds 59', { durationSeconds: 59 }, ['durationSeconds']],
    ['timeout', 'durationSeconds 2,419,201 (over 28 days)', { durationSeconds: 2_419_201 }, ['durationSeconds']],
    ['timeout', 'a fractional durationSeconds', { durationSeconds: 60.5 }, ['durationSeconds']],
    ['timeout', 'durationSeconds as a string', { durationSeconds: '60' }, ['durationSeconds']],
    ['timeout', 'a null durationSeconds', { durationSeconds: null }, ['durationSeconds']],
    ['timeout', 'a reason of 501 characters', { durationSeconds: 60, reason: 'r'.repeat(501) }, ['reason']],
    ['timeout', 'an empty reason', { durationSeconds: 60, reason: '' }, ['reason']],
    ['timeout', '6 evidence links', { durationSeconds: 60, evidence: links(6) }, ['evidence']],
    ['timeout', 'deleteMessageSeconds (a ban field)', { durationSeconds: 60, deleteMessageSeconds: 0 }, ['']],
    ['timeout', 'two bad fields at once', { durationSeconds: 10, reason: '' }, ['durationSeconds', 'reason']],
    ['ban', 'durationSeconds 59', { durationSeconds: 59 }, ['durationSeconds']],
    ['ban', 'durationSeconds 31,536,001 (over 365 days)', { durationSeconds: 31_536_001 }, ['durationSeconds']],
    ['ban', 'a fractional durationSeconds', { durationSeconds: 3600.5 }, ['durationSeconds']],
    ['ban', 'deleteMessageSeconds -1', { deleteMessageSeconds: -1 }, ['deleteMessageSeconds']],
    ['ban', 'deleteMessageSeconds 604,801 (over 7 days)', { deleteMessageSeconds: 604_801 }, ['deleteMessageSeconds']],
    ['ban', 'a fractional deleteMessageSeconds', { deleteMessageSeconds: 1.5 }, ['deleteMessageSeconds']],
    ['ban', 'a null deleteMessageSeconds', { deleteMessageSeconds: null }, ['deleteMessageSeconds']],
    ['ban', 'a reason of 501 characters', { reason: 'r'.repeat(501) }, ['reason']],
    ['ban', '6 evidence links', { evidence: links(6) }, ['evidence']],
    ['ban', 'an unknown field', { days: 7 }, ['']],
    ['ban', 'a null body', null, ['']],
    ...(['untimeout', 'kick', 'unban'] as const).flatMap((action): Array<[Action, string, unknown, string[]]> => [
      [action, 'a reason of 501 characters', { reason: 'r'.repeat(501) }, ['reason']],
      [action, 'an empty reason', { reason: '' }, ['reason']],
      [action, 'a numeric reason', { reason: 12 }, ['reason']],
      [action, '6 evidence links', { evidence: links(6) }, ['evidence']],
      [action, 'durationSeconds (not a field of it)', { durationSeconds: 60 }, ['']],
      [action, 'an array body', [], ['']],
      [action, 'a null body', null, ['']],
    ]),
  ])('%s with %s → 400 INVALID_REQUEST with issues, nothing written', async (action, _label, body, paths) => {
    const g = await createModerationGuild(db());
    const target = await g.addMember();
    const res = await refused(g.id, () => post(g, action, target, body, { 'Idempotency-Key': 'validation' }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'INVALID_REQUEST', message: expect.any(String), issues: issuesAt('body', ...paths) });
  });

  it.each(['warn', 'timeout'] as const)('%s without a body → 400 INVALID_REQUEST for the whole body', async (action) => {
    const g = await createModerationGuild(db());
    const target = await g.addMember();
    const res = await refused(g.id, () => post(g, action, target));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'INVALID_REQUEST', message: expect.any(String), issues: issuesAt('body', '') });
  });

  it.each(ACTIONS.flatMap((action) => ['abc', '1234567890123456', '123456789012345678901', '-12345678901234567'].map((id) => [action, id] as const)))(
    '%s with userId %j → 400 INVALID_REQUEST in the path',
    async (action, userId) => {
      const g = await createModerationGuild(db());
      const res = await refused(g.id, () => post(g, action, userId, VALID_BODY[action]));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'INVALID_REQUEST', message: expect.any(String), issues: issuesAt('path', 'userId') });
    },
  );

  it('reports a bad path id and a bad body together', async () => {
    const g = await createModerationGuild(db());
    const res = await refused(g.id, () => post(g, 'timeout', 'abc', { durationSeconds: 1 }));
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([...issuesAt('path', 'userId'), ...issuesAt('body', 'durationSeconds')]);
  });

  it.each(ACTIONS)('%s: 400 INVALID_JSON, 415 for another content type, 413 PAYLOAD_TOO_LARGE with the limit', async (action) => {
    const g = await createModerationGuild(db());
    const target = await g.addMember();
    await refused(g.id, async () => {
      const badJson = await post(g, action, target, '{"reason": "x",', { 'Idempotency-Key': 'body-rules' });
      expect(badJson.status).toBe(400);
      expect(badJson.body).toEqual({ error: 'INVALID_JSON', message: expect.any(String) });

      const text = await post(g, action, target, '{"reason":"x"}', { 'Content-Type': 'text/plain' });
      expect(text.status).toBe(415);
      expect(text.body).toEqual({ error: 'UNSUPPORTED_MEDIA_TYPE', message: expect.any(String) });

      const form = await post(g, action, target, 'reason=x', { 'Content-Type': 'application/x-www-form-urlencoded' });
      expect(form.status).toBe(415);

      const big = await post(g, action, target, { reason: 'r'.repeat(70_000) }, { 'Idempotency-Key': 'body-rules' });
      expect(big.status).toBe(413);
      expect(big.body).toEqual({ error: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining('65536'), limit: 65_536 });
    });
  });
});

describe('POST moderation actions: accepted requests', () => {
  it.each(['untimeout', 'kick', 'ban', 'unban'] as const)('%s without a body → 202 pending, stored with the defaults', async (action) => {
    const g = await createModerationGuild(db());
    const target = await g.addMember();
    const res = await post(g, action, target);
    expect(res.status).toBe(202);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(res.body).toEqual({
      actionId: expect.stringMatching(/^mda_[A-Za-z0-9_-]{16}$/),
      action,
      userId: target,
      status: 'pending',
      caseNumber: null,
      error: null,
      requestedAt: START.toISOString(),
    });
    const rows = await actionRows(g.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action_id: res.body.actionId,
      user_id: target,
      action,
      api_key_id: g.keyId,
      source: 'api',
      status: 'pending',
      request: { reason: null, evidence: [], durationSeconds: null, deleteMessageSeconds: 0 },
    });
    // The request itself records no case, event or audit row: the workflow does, once it ran.
    expect(await writes(g.id)).toMatchObject({ actions: 1, cases: 0, caseEvents: 0, idempotency: 0 });
  });

  it.each(['untimeout', 'kick', 'ban', 'unban'] as const)('%s with an empty JSON object or an empty body → 202', async (action) => {
    const g = await createModerationGuild(db());
    const target = await g.addMember();
    expect((await post(g, action, target, {})).status).toBe(202);
    expect((await post(g, action, target, '')).status).toBe(202);
    expect(await actionRows(g.id)).toHaveLength(2);
  });

  it.each<[Action, unknown, Record<string, unknown>]>([
    ['warn', { reason: 'r'.repeat(500), evidence: links(5) }, { reason: 'r'.repeat(500), evidence: links(5) }],
    ['warn', { reason: 'x', evidence: ['http://example.com/a'] }, { evidence: ['http://example.com/a'] }],
    ['timeout', { durationSeconds: 60 }, { durationSeconds: 60, reason: null }],
    ['timeout', { durationSeconds: 2_419_200, reason: null }, { durationSeconds: 2_419_200 }],
    ['untimeout', { reason: 'r'.repeat(500) }, { reason: 'r'.repeat(500) }],
    ['kick', { reason: null, evidence: links(5) }, { reason: null, evidence: links(5) }],
    ['ban', { durationSeconds: 60, deleteMessageSeconds: 0 }, { durationSeconds: 60, deleteMessageSeconds: 0 }],
    ['ban', { durationSeconds: 31_536_000, deleteMessageSeconds: 604_800 }, { durationSeconds: 31_536_000, deleteMessageSeconds: 604_800 }],
    ['ban', { durationSeconds: null, reason: 'scam' }, { durationSeconds: null, reason: 'scam', deleteMessageSeconds: 0 }],
    ['unban', { reason: 'appeal accepted' }, { reason: 'appeal accepted' }],
  ])('%s accepts the bounds %j', async (action, body, stored) => {
    const g = await createModerationGuild(db());
    const target = await g.addMember();
    const res = await post(g, action, target, body);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ action, userId: target, status: 'pending' });
    const [row] = await actionRows(g.id);
    expect(row!.request).toMatchObject(stored);
  });
});

describe('POST moderation actions: MEMBER_NOT_FOUND', () => {
  it.each(MEMBER_ACTIONS)('%s on a user who is not a member → 404 at once, nothing written', async (action) => {
    const g = await createModerationGuild(db());
    const stranger = snowflake();
    const res = await refused(g.id, () => post(g, action, stranger, VALID_BODY[action], { 'Idempotency-Key': 'stranger' }));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'MEMBER_NOT_FOUND', message: expect.any(String) });
  });

  it('the Idempotency-Key of a 404 is not stored: it works once the user is a member', async () => {
    const g = await createModerationGuild(db());
    const userId = snowflake();
    expect((await post(g, 'warn', userId, { reason: 'x' }, { 'Idempotency-Key': 'later' })).status).toBe(404);
    await addTestMember(db(), g, { userId, roleIds: [g.roles.member] });
    const res = await post(g, 'warn', userId, { reason: 'x' }, { 'Idempotency-Key': 'later' });
    expect(res.status).toBe(202);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it.each(['ban', 'unban'] as const)('%s of a user who is not a member → 202', async (action) => {
    const g = await createModerationGuild(db());
    const stranger = snowflake();
    const res = await post(g, action, stranger);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ action, userId: stranger, status: 'pending' });
    expect(await actionRows(g.id)).toHaveLength(1);
  });
});
