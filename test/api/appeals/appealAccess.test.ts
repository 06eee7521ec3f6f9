import { describe, expect, it } from 'vitest';
import { FEATURES } from '../../../src/core/features.js';
import { SCOPES } from '../../../src/core/scopes.js';
import { bearer } from '../../harness/fixtures.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { appealRequests, numbersOf, VERBS } from '../../harness/appeals.js';

// The Ban appeals feature and the appeals scopes on every appeal endpoint.
const NOW = new Date('2026-11-22T12:00:00.000Z');

// Decisions start their workflow on a task queue nobody polls: the HTTP layer is what is under test
// here, so `applying` stays true and no effect of the decision changes rows behind the test's back.
const { db, app } = useApiTestBed({ now: NOW, temporal: true });

const { setup, seedAppeal, list, getAppeal, decide, refused } = appealRequests(db, app, NOW);

describe('feature and scopes', () => {
  it('answers 409 FEATURE_DISABLED on every appeals endpoint when Ban appeals is off; nothing changes', async () => {
    const { guild, key } = await setup({ features: FEATURES.filter((f) => f !== 'appeals') });
    const { number } = await seedAppeal(guild);
    await refused(guild.id, async () => {
      for (const [method, path, body] of [
        ['GET', '', undefined],
        ['GET', '?status=all', undefined],
        ['GET', `/${number}`, undefined],
        ['GET', '/999', undefined],
        ['POST', `/${number}/approve`, { reason: 'x' }],
        ['POST', `/${number}/reject`, undefined],
        ['POST', `/${number}/approve`, { reason: 5 }],
      ] as const) {
        const res = await app.http(method, `/guilds/${guild.id}/appeals${path}`, {
          headers: { ...bearer(key), ...(method === 'POST' ? { 'Idempotency-Key': 'off' } : {}) },
          body,
        });
        expect(res.status, `${method} ${path}`).toBe(409);
        expect(res.body, `${method} ${path}`).toEqual({ error: 'FEATURE_DISABLED', message: expect.stringContaining('Ban appeals') });
      }
    });
  });

  it('a key with appeals:read reads but cannot decide: 403 INSUFFICIENT_SCOPE with required appeals:write', async () => {
    const { guild, key } = await setup({ scopes: ['appeals:read'] });
    const { number } = await seedAppeal(guild);
    expect(numbersOf(await list(guild, key))).toEqual([number]);
    expect((await getAppeal(guild, key, number)).status).toBe(200);
    await refused(guild.id, async () => {
      for (const verb of VERBS) {
        for (const [target, body] of [
          [number, { reason: 'x' }],
          [number, undefined],
          [999, { reason: 5 }],
        ] as const) {
          const res = await decide(guild, key, target, verb, { body, idempotencyKey: 'scope' });
          expect(res.status, verb).toBe(403);
          expect(res.body).toEqual({ error: 'INSUFFICIENT_SCOPE', message: expect.any(String), required: 'appeals:write' });
        }
      }
    });
  });

  it('appeals:write alone decides but does not read: GETs answer 403 with required appeals:read', async () => {
    const { guild, key } = await setup({ scopes: ['appeals:write'] });
    const { number } = await seedAppeal(guild);
    for (const path of ['', '?status=all', `/${number}`]) {
      const res = await app.http('GET', `/guilds/${guild.id}/appeals${path}`, { headers: bearer(key) });
      expect(res.status, path).toBe(403);
      expect(res.body).toEqual({ error: 'INSUFFICIENT_SCOPE', message: expect.any(String), required: 'appeals:read' });
    }
    expect((await decide(guild, key, number, 'approve')).status).toBe(202);
  });

  it('a key with every other scope gets 403 on every appeals endpoint; nothing changes', async () => {
    const { guild, key } = await setup({ scopes: SCOPES.filter((s) => !s.startsWith('appeals:')) });
    const { number } = await seedAppeal(guild);
    await refused(guild.id, async () => {
      for (const [method, path, required] of [
        ['GET', '', 'appeals:read'],
        ['GET', `/${number}`, 'appeals:read'],
        ['POST', `/${number}/approve`, 'appeals:write'],
        ['POST', `/${number}/reject`, 'appeals:write'],
      ] as const) {
        const res = await app.http(method, `/guilds/${guild.id}/appeals${path}`, { headers: bearer(key) });
        expect(res.status, path).toBe(403);
        expect(res.body).toEqual({ error: 'INSUFFICIENT_SCOPE', message: expect.any(String), required });
      }
    });
  });
});
