import { describe, expect, it } from 'vitest';
import { finishModAction } from '../../db/moderationActions.js';
import { addCaseEvent, insertCase, resolveCase, type NewCase } from '../../db/moderationCases.js';
import { fixedClock } from '../../src/clock.js';
import { useTestDatabase } from '../harness/database.js';
import { addTestMember, bearer, createTestKey, snowflake } from '../harness/fixtures.js';
import { createModerationGuild, type ModerationGuild } from '../harness/moderationGuild.js';
import { countWrites } from '../harness/rows.js';
import { testGateway } from '../harness/temporal.js';
import { useTestApp } from '../harness/testApp.js';

// The HTTP contract of the moderation endpoints. No worker polls the gateway's task queue: an accepted
// action's workflow stays queued, so every action stays `pending` (workflow outcomes are covered in
// test/workflows/moderationAction.test.ts).
const database = useTestDatabase();
const db = () => database.db;
// 12:00:20 → the fixed minute ends in 40 s.
const START = new Date('2026-11-22T12:00:20Z');
const clock = fixedClock(START);
const gateway = testGateway();
const app = useTestApp(db, { clock, deps: { temporal: gateway } });

type Action = 'warn' | 'timeout' | 'untimeout' | 'kick' | 'ban' | 'unban';
const ACTIONS: Action[] = ['warn', 'timeout', 'untimeout', 'kick', 'ban', 'unban'];
const MEMBER_ACTIONS: Action[] = ['warn', 'timeout', 'untimeout', 'kick'];
/** The smallest body each action accepts. */
const VALID_BODY: Record<Action, unknown> = {
  warn: { reason: 'spam' },
  timeout: { durationSeconds: 60 },
  untimeout: undefined,
  kick: undefined,
  ban: undefined,
  unban: undefined,
};

const post = (g: ModerationGuild, action: string, userId: string, body?: unknown, headers: Record<string, string> = {}, key = g.key) =>
  app.http('POST', `/guilds/${g.id}/moderation/users/${userId}/${action}`, { headers: { ...bearer(key), ...headers }, body });

const get = (g: ModerationGuild, path: string, key = g.key) =>
  app.http('GET', `/guilds/${g.id}/moderation${path}`, { headers: bearer(key) });

/** Every row a moderation request could write: actions, cases and their timeline, events, audit, Idempotency-Key records. */
async function writes(guildId: string) {
  const count = async (table: 'moderation_actions' | 'moderation_cases' | 'moderation_case_events') => {
    const row = await db()
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('guild_id', '=', guildId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const { events, audit, idempotency } = await countWrites(db(), guildId);
  return {
    actions: await count('moderation_actions'),
    cases: await count('moderation_cases'),
    caseEvents: await count('moderation_case_events'),
    events,
    audit,
    idempotency,
  };
}

/** Runs a request that must be refused and checks that it wrote nothing. */
async function refused<T>(guildId: string, send: () => Promise<T>): Promise<T> {
  const before = await writes(guildId);
  const res = await send();
  expect(await writes(guildId)).toEqual(before);
  expect(before.actions).toBe(0);
  return res;
}

const actionRows = (guildId: string) =>
  db().selectFrom('moderation_actions').selectAll().where('guild_id', '=', guildId).orderBy('requested_at').execute();

const issuesAt = (location: string, ...paths: string[]) => paths.map((path) => ({ location, path, message: expect.any(String) }));

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

describe('10 moderation actions per minute per key', () => {
  it('refuses the 11th with 429 RATE_LIMITED and Retry-After; replays, 400s and 404s do not count; per key; per minute', async () => {
    const g = await createModerationGuild(db());
    const target = await g.addMember();
    const { key: second } = await createTestKey(db(), g, { scopes: ['moderation:write'], createdBy: g.moderatorId });
    try {
      // Refused requests are not counted.
      for (let i = 0; i < 3; i++) {
        expect((await post(g, 'warn', snowflake(), { reason: 'x' })).status).toBe(404);
        expect((await post(g, 'timeout', target, { durationSeconds: 1 })).status).toBe(400);
      }
      const first = await post(g, 'warn', target, { reason: 'first' }, { 'Idempotency-Key': 'first' });
      expect(first.status).toBe(202);
      for (let i = 2; i <= 9; i++) expect((await post(g, 'ban', snowflake())).status, `action ${i}`).toBe(202);
      // A replay is answered from the stored response and not counted.
      for (let i = 0; i < 3; i++) {
        const replay = await post(g, 'warn', target, { reason: 'first' }, { 'Idempotency-Key': 'first' });
        expect(replay.status).toBe(202);
        expect(replay.headers['idempotent-replayed']).toBe('true');
        expect(replay.body).toEqual(first.body);
      }
      expect((await post(g, 'kick', target)).status, 'action 10').toBe(202);

      for (const [action, userId, body] of [
        ['ban', snowflake(), undefined],
        ['warn', target, { reason: 'eleventh' }],
      ] as const) {
        const over = await refusedAfter(g, () => post(g, action, userId, body, { 'Idempotency-Key': `over-${action}` }));
        expect(over.status).toBe(429);
        expect(over.body).toEqual({ error: 'RATE_LIMITED', message: expect.stringContaining('10') });
        expect(over.headers['retry-after']).toBe('40');
      }

      // Still answered once the key is limited.
      const lateReplay = await post(g, 'warn', target, { reason: 'first' }, { 'Idempotency-Key': 'first' });
      expect(lateReplay.status).toBe(202);
      expect(lateReplay.headers['idempotent-replayed']).toBe('true');
      expect(lateReplay.body).toEqual(first.body);

      // Another key of the same server has its own count.
      const other = await post(g, 'ban', snowflake(), undefined, {}, second);
      expect(other.status).toBe(202);

      // Retry-After is the time to the end of the fixed minute.
      clock.set(new Date('2026-11-22T12:00:59.500Z'));
      const late = await post(g, 'unban', snowflake());
      expect(late.status).toBe(429);
      expect(late.headers['retry-after']).toBe('1');

      clock.set(new Date('2026-11-22T12:01:00Z'));
      const next = await post(g, 'ban', snowflake());
      expect(next.status).toBe(202);
      expect(next.body.requestedAt).toBe('2026-11-22T12:01:00.000Z');
      // The Idempotency-Key of the refused request was not stored: it makes a new action now.
      const retried = await post(g, 'ban', snowflake(), undefined, { 'Idempotency-Key': 'over-ban' });
      expect(retried.status).toBe(202);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      expect(await actionRows(g.id)).toHaveLength(13);
    } finally {
      clock.set(START);
    }
  });
});

/** Like `refused`, for a server that already has actions. */
async function refusedAfter<T>(g: ModerationGuild, send: () => Promise<T>): Promise<T> {
  const before = await writes(g.id);
  const res = await send();
  expect(await writes(g.id)).toEqual(before);
  return res;
}

describe('Idempotency-Key on every action', () => {
  const FIRST: Record<Action, unknown> = {
    warn: { reason: 'spam', evidence: ['https://example.com/a.png'] },
    timeout: { durationSeconds: 600, reason: 'cool down' },
    untimeout: undefined,
    kick: { reason: 'raid' },
    ban: { reason: 'scam', deleteMessageSeconds: 3600 },
    unban: undefined,
  };
  /** The same request written differently: other key order and spacing. */
  const SAME: Record<Action, unknown> = {
    warn: '{ "evidence": ["https://example.com/a.png"],   "reason": "spam" }',
    timeout: '{"reason":"cool down","durationSeconds":600}',
    untimeout: undefined,
    kick: '{ "reason" : "raid" }',
    ban: '{"deleteMessageSeconds":3600,"reason":"scam"}',
    unban: undefined,
  };
  const OTHER: Record<Action, unknown> = {
    warn: { reason: 'spam!', evidence: ['https://example.com/a.png'] },
    timeout: { durationSeconds: 601, reason: 'cool down' },
    untimeout: { reason: 'sorry' },
    kick: { reason: 'raid', evidence: ['https://example.com/b.png'] },
    ban: { reason: 'scam', deleteMessageSeconds: 3600, durationSeconds: 86_400 },
    unban: { reason: 'appeal' },
  };

  it.each(ACTIONS)('%s: the same key and request replay the 202 with Idempotent-Replayed and queue one action', async (action) => {
    const g = await createModerationGuild(db());
    const target = await g.addMember();
    const first = await post(g, action, target, FIRST[action], { 'Idempotency-Key': `idem-${action}` });
    expect(first.status).toBe(202);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    clock.advance(5_000);
    try {
      const after = await writes(g.id);
      for (const body of [FIRST[action], SAME[action]]) {
        const again = await post(g, action, target, body, { 'Idempotency-Key': `idem-${action}` });
        expect(again.status).toBe(202);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(again.body).toEqual(first.body);
      }
      expect(await writes(g.id)).toEqual(after);
      expect(after).toMatchObject({ actions: 1, idempotency: 1 });
    } finally {
      clock.set(START);
    }
  });

  it.each(ACTIONS)('%s: the same key with another body, member or action → 422 IDEMPOTENCY_KEY_REUSED, nothing written', async (action) => {
    const g = await createModerationGuild(db());
    const target = await g.addMember();
    const otherMember = await g.addMember();
    expect((await post(g, action, target, FIRST[action], { 'Idempotency-Key': 'reused' })).status).toBe(202);
    const otherAction = action === 'ban' ? 'unban' : 'ban';
    for (const send of [
      () => post(g, action, target, OTHER[action], { 'Idempotency-Key': 'reused' }),
      () => post(g, action, otherMember, FIRST[action], { 'Idempotency-Key': 'reused' }),
      () => post(g, otherAction, target, undefined, { 'Idempotency-Key': 'reused' }),
    ]) {
      const res = await refusedAfter(g, send);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: 'IDEMPOTENCY_KEY_REUSED', message: expect.any(String) });
    }
    expect(await writes(g.id)).toMatchObject({ actions: 1, idempotency: 1 });
  });

  it('keys are per API key: another key may use the same value for a new action', async () => {
    const g = await createModerationGuild(db());
    const { key: second } = await createTestKey(db(), g, { scopes: ['moderation:write'], createdBy: g.moderatorId });
    const userId = snowflake();
    const a = await post(g, 'ban', userId, undefined, { 'Idempotency-Key': 'shared' });
    const b = await post(g, 'ban', userId, undefined, { 'Idempotency-Key': 'shared' }, second);
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.body.actionId).not.toBe(a.body.actionId);
    expect(await actionRows(g.id)).toHaveLength(2);
  });

  it('simultaneous requests with one key share one action', async () => {
    const g = await createModerationGuild(db());
    const userId = snowflake();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => post(g, 'ban', userId, { reason: 'burst' }, { 'Idempotency-Key': 'burst' })),
    );
    expect(results.map((r) => r.status)).toEqual([202, 202, 202, 202, 202]);
    expect(new Set(results.map((r) => r.body.actionId)).size).toBe(1);
    expect(results.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(4);
    expect(await writes(g.id)).toMatchObject({ actions: 1, idempotency: 1 });
  });

  it('400 INVALID_REQUEST for a malformed Idempotency-Key, nothing written', async () => {
    const g = await createModerationGuild(db());
    const res = await refused(g.id, () => post(g, 'ban', snowflake(), undefined, { 'Idempotency-Key': 'k'.repeat(101) }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'INVALID_REQUEST', message: expect.any(String), issues: issuesAt('header', 'Idempotency-Key') });
  });
});

describe('GET moderation action', () => {
  it('shows the action to the key that requested it, and to no other key', async () => {
    const g = await createModerationGuild(db());
    const target = await g.addMember();
    const posted = await post(g, 'timeout', target, { durationSeconds: 600 });
    expect(posted.status).toBe(202);
    const { actionId } = posted.body;

    const own = await get(g, `/actions/${actionId}`);
    expect(own.status).toBe(200);
    expect(own.body).toEqual(posted.body);

    const { key: sibling } = await createTestKey(db(), g, { scopes: ['moderation:read', 'moderation:write'], createdBy: g.moderatorId });
    const foreign = await get(g, `/actions/${actionId}`, sibling);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'ACTION_NOT_FOUND', message: expect.any(String) });

    // A key of another server, on its own server's path.
    const h = await createModerationGuild(db());
    const elsewhere = await get(h, `/actions/${actionId}`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error).toBe('ACTION_NOT_FOUND');
  });

  it('answers a finished action from its stored outcome', async () => {
    const g = await createModerationGuild(db());
    const posted = await post(g, 'unban', snowflake());
    await finishModAction(db(), posted.body.actionId, { status: 'failed', error: 'NOT_BANNED' }, START);
    const res = await get(g, `/actions/${posted.body.actionId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...posted.body, status: 'failed', caseNumber: null, error: 'NOT_BANNED' });
  });

  it('unknown id → 404 ACTION_NOT_FOUND', async () => {
    const g = await createModerationGuild(db());
    const res = await get(g, '/actions/mda_AAAAAAAAAAAAAAAA');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'ACTION_NOT_FOUND', message: expect.any(String) });
  });

  it.each(['mda_short', 'mda_AAAAAAAAAAAAAAAAA', 'xpc_AAAAAAAAAAAAAAAA', 'AAAAAAAAAAAAAAAAAAAA', 'mda_AAAAAAAA%2BAAAAAAA'])(
    'malformed id %s → 400 INVALID_REQUEST in the path',
    async (id) => {
      const g = await createModerationGuild(db());
      const res = await get(g, `/actions/${id}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'INVALID_REQUEST', message: expect.any(String), issues: issuesAt('path', 'actionId') });
    },
  );
});

// Cases are seeded straight into the database: the API only reads them.
type CaseAction = NewCase['action'];
type CaseSource = NewCase['source'];
interface Seed {
  action: CaseAction;
  userId: string;
  moderatorId: string;
  source: CaseSource;
  active: boolean;
  deleted?: boolean;
}
interface Seeded extends Seed {
  number: number;
}

const CASE_EPOCH = Date.parse('2026-11-01T00:00:00Z');

async function seedCases(guildId: string, seeds: Seed[]): Promise<Seeded[]> {
  const out: Seeded[] = [];
  for (const s of seeds) {
    const { number } = await insertCase(db(), {
      guildId,
      action: s.action,
      userId: s.userId,
      userTag: null,
      moderatorId: s.moderatorId,
      reason: `case of ${s.action}`,
      durationSeconds: null,
      evidence: [],
      source: s.source,
      active: s.active,
      expiresAt: null,
      dmStatus: null,
      apiKey: null,
      operationId: null,
      createdAt: new Date(CASE_EPOCH + out.length * 60_000),
    });
    if (s.deleted) await markDeleted(guildId, number);
    out.push({ ...s, number });
  }
  return out;
}

const markDeleted = (guildId: string, number: number) =>
  db().updateTable('moderation_cases').set({ deleted_at: new Date(CASE_EPOCH) }).where('guild_id', '=', guildId).where('number', '=', number).execute();

/** The visible case numbers that `keep` accepts, newest first. */
const expected = (seeded: Seeded[], keep: (s: Seeded) => boolean = () => true) =>
  seeded
    .filter((s) => !s.deleted && keep(s))
    .map((s) => s.number)
    .reverse();

const numbers = (body: { items: Array<{ number: number }> }) => body.items.map((c) => c.number);

describe('GET moderation cases', () => {
  async function filterFixture() {
    const g = await createModerationGuild(db());
    const [alice, bob] = [snowflake(), snowflake()];
    const mod = g.moderatorId;
    const bot = g.botUserId;
    const seeded = await seedCases(g.id, [
      { action: 'warn', userId: alice, moderatorId: mod, source: 'api', active: true },
      { action: 'timeout', userId: bob, moderatorId: mod, source: 'command', active: true },
      { action: 'kick', userId: alice, moderatorId: bot, source: 'automod', active: false },
      { action: 'ban', userId: bob, moderatorId: mod, source: 'console', active: false, deleted: true },
      { action: 'tempban', userId: alice, moderatorId: bot, source: 'escalation', active: true },
      { action: 'warn', userId: bob, moderatorId: mod, source: 'command', active: false },
      { action: 'note', userId: alice, moderatorId: mod, source: 'command', active: false, deleted: true },
      { action: 'unban', userId: bob, moderatorId: bot, source: 'antiraid', active: false },
      { action: 'warn', userId: alice, moderatorId: mod, source: 'api', active: true },
      { action: 'softban', userId: bob, moderatorId: bot, source: 'antinuke', active: false },
      { action: 'purge', userId: alice, moderatorId: mod, source: 'command', active: false },
      { action: 'warn', userId: alice, moderatorId: mod, source: 'automod', active: true, deleted: true },
      { action: 'untimeout', userId: bob, moderatorId: mod, source: 'api', active: false },
    ]);
    // Another server's cases never show.
    const other = await createModerationGuild(db());
    await seedCases(other.id, [{ action: 'warn', userId: alice, moderatorId: other.moderatorId, source: 'api', active: true }]);
    return { g, seeded, alice, bob };
  }

  it('lists every visible case newest first, deleted ones left out', async () => {
    const { g, seeded } = await filterFixture();
    const res = await get(g, '/cases');
    expect(res.status).toBe(200);
    expect(numbers(res.body)).toEqual(expected(seeded));
    expect(numbers(res.body)).toEqual([13, 11, 10, 9, 8, 6, 5, 3, 2, 1]);
    expect(res.body.nextCursor).toBeNull();
  });

  it('filters by action, source, userId, moderatorId and active, alone and together', async () => {
    const { g, seeded, alice, bob } = await filterFixture();
    const checks: Array<[string, (s: Seeded) => boolean]> = [
      ['action=warn', (s) => s.action === 'warn'],
      ['action=tempban', (s) => s.action === 'tempban'],
      ['action=ban', (s) => s.action === 'ban'],
      ['action=note', (s) => s.action === 'note'],
      ['source=api', (s) => s.source === 'api'],
      ['source=automod', (s) => s.source === 'automod'],
      ['source=antinuke', (s) => s.source === 'antinuke'],
      [`userId=${alice}`, (s) => s.userId === alice],
      [`userId=${bob}`, (s) => s.userId === bob],
      [`userId=${snowflake()}`, () => false],
      [`moderatorId=${g.botUserId}`, (s) => s.moderatorId === g.botUserId],
      [`moderatorId=${g.moderatorId}`, (s) => s.moderatorId === g.moderatorId],
      ['active=1', (s) => s.active],
      ['active=true', (s) => s.active],
      ['active=0', (s) => !s.active],
      ['active=false', (s) => !s.active],
      [`action=warn&active=true&userId=${alice}`, (s) => s.action === 'warn' && s.active && s.userId === alice],
      [`source=command&moderatorId=${g.moderatorId}&active=0`, (s) => s.source === 'command' && s.moderatorId === g.moderatorId && !s.active],
    ];
    for (const [query, keep] of checks) {
      const res = await get(g, `/cases?${query}`);
      expect(res.status, query).toBe(200);
      expect(numbers(res.body), query).toEqual(expected(seeded, keep));
      expect(res.body.nextCursor, query).toBeNull();
    }
    // The filters select something in each direction (the fixture is not degenerate).
    expect(expected(seeded, (s) => s.active).length).toBeGreaterThan(0);
    expect(expected(seeded, (s) => !s.active).length).toBeGreaterThan(0);
  });

  it('gives each case in the documented shape', async () => {
    const g = await createModerationGuild(db());
    const userId = snowflake();
    const createdAt = new Date('2026-11-21T08:00:00Z');
    const expiresAt = new Date('2026-11-21T09:00:00Z');
    await insertCase(db(), {
      guildId: g.id,
      action: 'timeout',
      userId,
      userTag: 'target#0001',
      moderatorId: g.moderatorId,
      reason: 'cool down',
      durationSeconds: 3600,
      evidence: ['https://example.com/a.png'],
      source: 'api',
      active: true,
      expiresAt,
      dmStatus: 'sent',
      apiKey: { id: g.keyId, name: 'mod key' },
      operationId: null,
      createdAt,
    });
    await seedCases(g.id, [{ action: 'kick', userId, moderatorId: g.botUserId, source: 'automod', active: false }]);
    const res = await get(g, '/cases');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [
        {
          number: 2,
          action: 'kick',
          userId,
          userTag: null,
          moderatorId: g.botUserId,
          reason: 'case of kick',
          durationSeconds: null,
          evidence: [],
          source: 'automod',
          active: false,
          expiresAt: null,
          resolvedAt: null,
          dmStatus: null,
          apiKey: null,
          createdAt: new Date(CASE_EPOCH).toISOString(),
        },
        {
          number: 1,
          action: 'timeout',
          userId,
          userTag: 'target#0001',
          moderatorId: g.moderatorId,
          reason: 'cool down',
          durationSeconds: 3600,
          evidence: ['https://example.com/a.png'],
          source: 'api',
          active: true,
          expiresAt: expiresAt.toISOString(),
          resolvedAt: null,
          dmStatus: 'sent',
          apiKey: { id: g.keyId, name: 'mod key' },
          createdAt: createdAt.toISOString(),
        },
      ],
      nextCursor: null,
    });
  });

  describe('paging', () => {
    // 30 cases, 6 of them deleted: 24 visible.
    async function pagingFixture() {
      const g = await createModerationGuild(db());
      const userId = snowflake();
      const seeded = await seedCases(
        g.id,
        Array.from({ length: 30 }, (_, i) => ({
          action: (['warn', 'kick', 'ban'] as const)[i % 3]!,
          userId,
          moderatorId: g.moderatorId,
          source: 'command' as const,
          active: i % 2 === 0,
          deleted: i % 5 === 3,
        })),
      );
      return { g, all: expected(seeded) };
    }

    async function pageThrough(g: ModerationGuild, query: string) {
      const pages: number[][] = [];
      let before: string | null | undefined;
      for (let guard = 0; guard < 50; guard++) {
        const res = await get(g, `/cases?${query}${before ? `&before=${before}` : ''}`);
        expect(res.status).toBe(200);
        pages.push(numbers(res.body));
        before = res.body.nextCursor;
        if (before === null) return pages;
        expect(before).toBe(String(res.body.items.at(-1).number));
      }
      throw new Error('paging did not end');
    }

    it('defaults to 25 per page', async () => {
      const g = await createModerationGuild(db());
      const seeded = await seedCases(
        g.id,
        Array.from({ length: 27 }, () => ({ action: 'warn' as const, userId: snowflake(), moderatorId: g.moderatorId, source: 'api' as const, active: true })),
      );
      const all = expected(seeded);
      const first = await get(g, '/cases');
      expect(first.body.items).toHaveLength(25);
      expect(numbers(first.body)).toEqual(all.slice(0, 25));
      expect(first.body.nextCursor).toBe('3');
      const second = await get(g, `/cases?before=${first.body.nextCursor}`);
      expect(numbers(second.body)).toEqual([2, 1]);
      expect(second.body.nextCursor).toBeNull();
    });

    it.each([1, 4, 5, 7, 24, 25, 100])('pages with limit=%i through every case once, nextCursor null on the last page', async (limit) => {
      const { g, all } = await pagingFixture();
      expect(all).toHaveLength(24);
      const pages = await pageThrough(g, `limit=${limit}`);
      expect(pages.flat()).toEqual(all);
      expect(pages).toHaveLength(Math.ceil(all.length / limit));
      for (const page of pages.slice(0, -1)) expect(page).toHaveLength(limit);
      expect(pages.at(-1)!.length).toBeGreaterThan(0);
    });

    it('pages a filtered list the same way', async () => {
      const { g } = await pagingFixture();
      const everything = (await get(g, '/cases?limit=100&active=1')).body;
      const pages = await pageThrough(g, 'limit=3&active=1');
      expect(pages.flat()).toEqual(numbers(everything));
      expect(pages.flat().length).toBeGreaterThan(3);
    });

    it('starts below any case number given as before', async () => {
      const { g, all } = await pagingFixture();
      expect(numbers((await get(g, '/cases?before=11&limit=100')).body)).toEqual(all.filter((n) => n < 11));
      expect((await get(g, '/cases?before=1')).body).toEqual({ items: [], nextCursor: null });
      expect(numbers((await get(g, '/cases?before=999999999&limit=1')).body)).toEqual([all[0]]);
    });
  });

  it.each<[string, string[]]>([
    ['action=mute', ['action']],
    ['action=WARN', ['action']],
    ['action=warn&action=ban', ['action']],
    ['source=web', ['source']],
    ['userId=abc', ['userId']],
    ['userId=1234', ['userId']],
    ['moderatorId=12345678901234567890123', ['moderatorId']],
    ['active=yes', ['active']],
    ['active=TRUE', ['active']],
    ['active=2', ['active']],
    ['active=', ['active']],
    ['limit=0', ['limit']],
    ['limit=101', ['limit']],
    ['limit=1.5', ['limit']],
    ['limit=abc', ['limit']],
    ['before=0', ['before']],
    ['before=-1', ['before']],
    ['before=1000000000', ['before']],
    ['before=abc', ['before']],
    ['limit=0&before=0&active=maybe', ['active', 'limit', 'before']],
  ])('%s → 400 INVALID_REQUEST in the query', async (query, paths) => {
    const g = await createModerationGuild(db());
    const res = await get(g, `/cases?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'INVALID_REQUEST', message: expect.any(String), issues: issuesAt('query', ...paths) });
  });
});

describe('GET moderation case', () => {
  it('gives the case with its timeline, oldest first', async () => {
    const g = await createModerationGuild(db());
    const userId = snowflake();
    const createdAt = new Date('2026-11-21T08:00:00Z');
    const { number } = await insertCase(db(), {
      guildId: g.id,
      action: 'warn',
      userId,
      userTag: null,
      moderatorId: g.moderatorId,
      reason: 'spam',
      durationSeconds: null,
      evidence: [],
      source: 'api',
      active: true,
      expiresAt: null,
      dmStatus: 'sent',
      apiKey: { id: g.keyId, name: 'mod key' },
      operationId: null,
      createdAt,
    });
    await addCaseEvent(db(), { guildId: g.id, caseNumber: number, type: 'dm', actorId: null, data: { status: 'sent' }, at: new Date('2026-11-21T08:00:01Z') });
    const resolvedAt = new Date('2026-11-21T09:00:00Z');
    expect(await resolveCase(db(), { guildId: g.id, caseNumber: number, how: 'revoked', actorId: g.moderatorId, data: { byCase: 7 }, at: resolvedAt })).toBe(
      true,
    );

    const res = await get(g, `/cases/${number}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      number,
      action: 'warn',
      userId,
      userTag: null,
      moderatorId: g.moderatorId,
      reason: 'spam',
      durationSeconds: null,
      evidence: [],
      source: 'api',
      active: false,
      expiresAt: null,
      resolvedAt: resolvedAt.toISOString(),
      dmStatus: 'sent',
      apiKey: { id: g.keyId, name: 'mod key' },
      createdAt: createdAt.toISOString(),
      events: [
        { type: 'created', actorId: g.moderatorId, data: {}, createdAt: createdAt.toISOString() },
        { type: 'dm', actorId: null, data: { status: 'sent' }, createdAt: '2026-11-21T08:00:01.000Z' },
        { type: 'revoked', actorId: g.moderatorId, data: { byCase: 7 }, createdAt: resolvedAt.toISOString() },
      ],
    });
  });

  it('unknown, deleted or another server’s case → 404 CASE_NOT_FOUND', async () => {
    const g = await createModerationGuild(db());
    const other = await createModerationGuild(db());
    const [kept, deleted] = await seedCases(g.id, [
      { action: 'warn', userId: snowflake(), moderatorId: g.moderatorId, source: 'api', active: true },
      { action: 'kick', userId: snowflake(), moderatorId: g.moderatorId, source: 'api', active: false, deleted: true },
    ]);
    await seedCases(other.id, Array.from({ length: 3 }, () => ({ action: 'warn' as const, userId: snowflake(), moderatorId: other.moderatorId, source: 'api' as const, active: true })));
    expect((await get(g, `/cases/${kept!.number}`)).status).toBe(200);
    for (const number of [deleted!.number, 3, 999_999_999]) {
      const res = await get(g, `/cases/${number}`);
      expect(res.status, String(number)).toBe(404);
      expect(res.body).toEqual({ error: 'CASE_NOT_FOUND', message: expect.any(String) });
    }
  });

  it.each(['0', '-1', 'abc', '1.5', '1000000000'])('malformed number %s → 400 INVALID_REQUEST in the path', async (number) => {
    const g = await createModerationGuild(db());
    const res = await get(g, `/cases/${number}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'INVALID_REQUEST', message: expect.any(String), issues: issuesAt('path', 'number') });
  });
});

describe('feature and scope', () => {
  it('answers 409 FEATURE_DISABLED on every moderation endpoint when Moderation is off, writing nothing', async () => {
    const g = await createModerationGuild(db(), { features: ['bank', 'levels'] });
    const target = await g.addMember();
    await refused(g.id, async () => {
      for (const [method, path, body] of [
        ['GET', '/cases', undefined],
        ['GET', '/cases/1', undefined],
        ['GET', '/actions/mda_AAAAAAAAAAAAAAAA', undefined],
        ...ACTIONS.map((action) => ['POST', `/users/${target}/${action}`, VALID_BODY[action]] as const),
        // The feature is checked before the body.
        ['POST', `/users/${target}/warn`, '{'],
        ['POST', `/users/${target}/timeout`, { durationSeconds: 1 }],
      ] as const) {
        const res = await app.http(method, `/guilds/${g.id}/moderation${path}`, { headers: bearer(g.key), body });
        expect(res.status, `${method} ${path}`).toBe(409);
        expect(res.body, `${method} ${path}`).toEqual({ error: 'FEATURE_DISABLED', message: expect.stringContaining('Moderation') });
      }
    });
  });

  it('a key without moderation:write gets 403 INSUFFICIENT_SCOPE on every action and on polling; moderation:read lists cases', async () => {
    const g = await createModerationGuild(db());
    const target = await g.addMember();
    const [seeded] = await seedCases(g.id, [{ action: 'warn', userId: target, moderatorId: g.moderatorId, source: 'api', active: true }]);
    const { key: readOnly } = await createTestKey(db(), g, { scopes: ['moderation:read'], createdBy: g.moderatorId });
    const posted = await post(g, 'ban', snowflake());
    await refusedAfter(g, async () => {
      for (const action of ACTIONS) {
        // Scope comes before the body: even a bad body gets the 403.
        for (const body of [VALID_BODY[action], '{']) {
          const res = await post(g, action, target, body, { 'Idempotency-Key': 'scope' }, readOnly);
          expect(res.status, action).toBe(403);
          expect(res.body).toEqual({ error: 'INSUFFICIENT_SCOPE', message: expect.any(String), required: 'moderation:write' });
        }
      }
      const poll = await get(g, `/actions/${posted.body.actionId}`, readOnly);
      expect(poll.status).toBe(403);
      expect(poll.body).toEqual({ error: 'INSUFFICIENT_SCOPE', message: expect.any(String), required: 'moderation:write' });
    });
    const list = await get(g, '/cases', readOnly);
    expect(list.status).toBe(200);
    expect(numbers(list.body)).toEqual([seeded!.number]);
    expect((await get(g, `/cases/${seeded!.number}`, readOnly)).status).toBe(200);
  });

  it('a key without moderation:read gets 403 INSUFFICIENT_SCOPE on the cases, but may act and poll', async () => {
    const g = await createModerationGuild(db());
    const { key: writeOnly } = await createTestKey(db(), g, { scopes: ['moderation:write'], createdBy: g.moderatorId });
    for (const path of ['/cases', '/cases/1', '/cases?limit=0']) {
      const res = await get(g, path, writeOnly);
      expect(res.status, path).toBe(403);
      expect(res.body).toEqual({ error: 'INSUFFICIENT_SCOPE', message: expect.any(String), required: 'moderation:read' });
    }
    const posted = await post(g, 'ban', snowflake(), undefined, {}, writeOnly);
    expect(posted.status).toBe(202);
    expect((await get(g, `/actions/${posted.body.actionId}`, writeOnly)).status).toBe(200);
  });

  it('a key with other scopes only gets 403 INSUFFICIENT_SCOPE and nothing is written', async () => {
    const g = await createModerationGuild(db());
    const target = await g.addMember();
    const { key } = await createTestKey(db(), g, { scopes: ['guild:read', 'bank:write', 'appeals:write'], createdBy: g.moderatorId });
    const res = await refused(g.id, () => post(g, 'kick', target, undefined, {}, key));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'INSUFFICIENT_SCOPE', message: expect.any(String), required: 'moderation:write' });
  });
});
