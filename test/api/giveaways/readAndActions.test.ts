import { describe, expect, it } from 'vitest';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { giveawayRequests, type GiveawayGuild } from './giveawayBed.js';

const NOW = new Date('2026-11-24T12:00:00.000Z');
const { db, app, clock } = useApiTestBed({ now: NOW, temporal: true });
const { setup, start, list, get, entries, end, reroll, refused } = giveawayRequests(db, app, clock);

const setStatus = (g: GiveawayGuild, id: number, status: 'active' | 'ended' | 'cancelled', winnerIds: string[] = []) =>
  db().updateTable('giveaways').set({ status, winner_ids: winnerIds }).where('guild_id', '=', g.id).where('id', '=', id).execute();
const ids = (res: { body: { items: Array<{ id: number }> } }) => res.body.items.map((i) => i.id);

describe('GET /giveaways and GET /giveaways/{id}', () => {
  it('running ones first by end time, then the others newest first; status filters; pages with total and nextPage', async () => {
    const g = await setup();
    // 1: ends in 3 h, 2: in 1 h (scheduled for later), 3: ended, 4: ends in 2 h, 5: cancelled (newest).
    const made = [];
    for (const body of [{ durationSeconds: 10_800 }, { startsAt: new Date(NOW.getTime() + 60_000).toISOString(), durationSeconds: 3540 }, {}, { durationSeconds: 7200 }, {}]) {
      clock.advance(1000);
      made.push((await start(g, body)).body.id as number);
    }
    await setStatus(g, 1, 'active');
    await setStatus(g, 3, 'ended');
    await setStatus(g, 4, 'active');
    await setStatus(g, 5, 'cancelled');
    expect(made).toEqual([1, 2, 3, 4, 5]);
    expect(ids(await list(g))).toEqual([2, 4, 1, 5, 3]);
    expect(ids(await list(g, 'status=open'))).toEqual([2, 4, 1]);
    expect(ids(await list(g, 'status=active'))).toEqual([4, 1]);
    expect(ids(await list(g, 'status=ended'))).toEqual([3]);
    expect(ids(await list(g, 'status=scheduled'))).toEqual([2]);
    expect((await list(g, 'limit=2')).body).toMatchObject({ total: 5, page: 1, nextPage: 2 });
    const last = await list(g, 'limit=2&page=3');
    expect(ids(last)).toEqual([3]);
    expect(last.body).toMatchObject({ total: 5, page: 3, nextPage: null });
    expect((await list(g, 'page=9')).body).toMatchObject({ items: [], total: 5, nextPage: null });
  });

  it.each([
    ['status=running', 'status'],
    ['page=0', 'page'],
    ['page=10001', 'page'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
  ])('list with %s: 400 INVALID_REQUEST', async (query, path) => {
    const g = await setup();
    const res = await list(g, query);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'INVALID_REQUEST', issues: [expect.objectContaining({ location: 'query', path })] });
  });

  it('404 GIVEAWAY_NOT_FOUND for an unknown id (and for another server’s giveaway), 400 for a malformed one', async () => {
    const g = await setup();
    const other = await setup();
    await start(other, {});
    // Neither server changes: not the caller's, nor the one that has a giveaway 1.
    await refused(g.id, () => refused(other.id, async () => {
      for (const res of [await get(g, 1), await entries(g, 1), await end(g, 1), await reroll(g, 1, {})]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: 'GIVEAWAY_NOT_FOUND', message: 'No giveaway with this id.' });
      }
      for (const res of [await get(g, 'abc'), await get(g, 0), await entries(g, '1.5'), await end(g, -1), await reroll(g, 'x', {})]) {
        expect(res.status).toBe(400);
        expect(res.body.issues).toEqual([expect.objectContaining({ location: 'path', path: 'giveawayId' })]);
      }
    }));
  });

  it('entries query bounds: 400 INVALID_REQUEST', async () => {
    const g = await setup();
    await start(g, {});
    for (const query of ['page=0', 'limit=101', 'page=x']) expect((await entries(g, 1, query)).status).toBe(400);
  });
});

describe('POST end and reroll: refusals answered before the workflow', () => {
  it.each(['scheduled', 'ended', 'cancelled'] as const)('end of a %s giveaway: 409 GIVEAWAY_NOT_ACTIVE with its status, nothing changed', async (status) => {
    const g = await setup();
    await start(g, {});
    if (status !== 'scheduled') await setStatus(g, 1, status);
    await refused(g.id, async () => {
      const res = await end(g, 1);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'GIVEAWAY_NOT_ACTIVE', message: `The giveaway is ${status}; only an active giveaway can be ended.`, status });
    });
  });

  it.each(['scheduled', 'active', 'cancelled'] as const)('reroll of a %s giveaway: 409 GIVEAWAY_NOT_ENDED with its status, nothing changed', async (status) => {
    const g = await setup();
    await start(g, {});
    if (status !== 'scheduled') await setStatus(g, 1, status);
    await refused(g.id, async () => {
      const res = await reroll(g, 1, { count: 1 });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: 'GIVEAWAY_NOT_ENDED', status });
    });
  });

  it('reroll replacing someone who is not a current winner: 422 NOT_A_WINNER, nothing changed', async () => {
    const g = await setup();
    await start(g, {});
    const winner = await g.addMember();
    const stranger = await g.addMember();
    await setStatus(g, 1, 'ended', [winner]);
    await refused(g.id, async () => {
      const res = await reroll(g, 1, { replaceUserIds: [winner, stranger] });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: 'NOT_A_WINNER', message: `Not among the current winners: ${stranger}.` });
    });
  });

  it.each<[string, number, string[], Record<string, unknown>, string]>([
    ['2 new winners for a giveaway of 1 (every winner replaced)', 1, ['w0'], { count: 2 }, 'The giveaway has 1 winner at most: this reroll may draw 1 to 1, not 2.'],
    ['2 new winners replacing 1 of a giveaway of 2', 2, ['w0', 'w1'], { replaceUserIds: ['w0'], count: 2 }, 'The giveaway has 2 winners at most: this reroll may draw 1 to 1, not 2.'],
    ['nobody replaced while every place is taken', 1, ['w0'], { replaceUserIds: [] }, 'The giveaway has 1 winner at most and every place is taken: replace some of them (replaceUserIds).'],
  ])('reroll asking for %s: 422 TOO_MANY_WINNERS, nothing changed', async (_case, winners, current, body, message) => {
    const g = await setup();
    await start(g, { winners });
    const members = await Promise.all(current.map(() => g.addMember()));
    await setStatus(g, 1, 'ended', members);
    const named = JSON.parse(JSON.stringify(body).replace(/"w(\d)"/g, (_m, i: string) => JSON.stringify(members[Number(i)])));
    await refused(g.id, async () => {
      const res = await reroll(g, 1, named);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: 'TOO_MANY_WINNERS', message });
    });
  });

  it.each<[string, unknown, string]>([
    ['count 0', { count: 0 }, 'count'],
    ['count 51', { count: 51 }, 'count'],
    ['a malformed user id', { replaceUserIds: ['bob'] }, 'replaceUserIds.0'],
    ['51 user ids', { replaceUserIds: Array.from({ length: 51 }, (_, i) => String(1_300_000_000_000_000_000n + BigInt(i))) }, 'replaceUserIds'],
    ['an unknown field', { winners: 2 }, ''],
  ])('reroll with %s: 400 INVALID_REQUEST, nothing changed', async (_case, body, path) => {
    const g = await setup();
    await start(g, {});
    await setStatus(g, 1, 'ended');
    await refused(g.id, async () => {
      const res = await reroll(g, 1, body);
      expect(res.status).toBe(400);
      expect(res.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ location: 'body', path })]));
    });
  });

  it('scopes and the feature: 403 INSUFFICIENT_SCOPE for end with a read key and list with a write key; 409 FEATURE_DISABLED', async () => {
    const reader = await setup({ scopes: ['giveaways:read'] });
    expect((await end(reader, 1)).body).toMatchObject({ error: 'INSUFFICIENT_SCOPE', required: 'giveaways:write' });
    const writer = await setup({ scopes: ['giveaways:write'] });
    expect((await list(writer)).body).toMatchObject({ error: 'INSUFFICIENT_SCOPE', required: 'giveaways:read' });
    const off = await setup({ features: ['bank'] });
    for (const res of [await list(off), await get(off, 1), await entries(off, 1), await end(off, 1), await reroll(off, 1, {})]) {
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('FEATURE_DISABLED');
    }
  });
});
