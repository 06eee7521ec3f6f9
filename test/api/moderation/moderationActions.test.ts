import { describe, expect, it } from 'vitest';
import { finishModAction } from '../../../db/moderation/actions.js';
import { createTestKey, snowflake } from '../../harness/fixtures.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { createModerationGuild } from '../../harness/moderationGuild.js';
import { ACTIONS, issuesAt, moderationRequests, type Action } from '../../harness/moderationRequests.js';

// Moderation actions over HTTP: the per-key limit, Idempotency-Key and polling. No worker polls the gateway's
// task queue: an accepted action stays `pending` (outcomes: test/workflows/moderationAction.test.ts).
// 12:00:20 → the fixed minute ends in 40 s.
const START = new Date('2026-11-22T12:00:20Z');
const { db, clock, app } = useApiTestBed({ now: START, temporal: true });

const { post, get, writes, refused, refusedAfter } = moderationRequests(db, app);

const actionRows = (guildId: string) =>
  db().selectFrom('moderation_actions').selectAll().where('guild_id', '=', guildId).orderBy('requested_at').execute();

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
