import { describe, expect, it } from 'vitest';
import { bearer, createTestKey, snowflake } from '../../harness/fixtures.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { createModerationGuild } from '../../harness/moderationGuild.js';
import { ACTIONS, moderationRequests, numbers, VALID_BODY } from '../../harness/moderationRequests.js';

// The Moderation feature and the moderation scopes on every moderation endpoint. No worker polls the
// gateway's task queue.
const START = new Date('2026-11-22T12:00:20Z');
const { db, app } = useApiTestBed({ now: START, temporal: true });

const { post, get, refused, refusedAfter, seedCases } = moderationRequests(db, app);

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
