import { describe, expect, it } from 'vitest';
import { findAppeal } from '../../../db/appeals/appeals.js';
import { countWrites } from '../../harness/rows.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { appealRequests, DECIDED, VERBS } from '../../harness/appeals.js';

// Idempotency-Key on approve and reject. No worker applies the decisions.
const NOW = new Date('2026-11-22T12:00:00.000Z');

// Decisions start their workflow on a task queue nobody polls: the HTTP layer is what is under test
// here, so `applying` stays true and no effect of the decision changes rows behind the test's back.
const { db, app } = useApiTestBed({ now: NOW, temporal: true });

const { setup, seedAppeal, seedMany, decide, refused, auditRows, staffMessages } = appealRequests(db, app, NOW);

describe('Idempotency-Key on approve and reject', () => {
  it.each(VERBS)('%s: a replay answers the stored 202 with Idempotent-Replayed and changes nothing, also after the decision', async (verb) => {
    const { guild, key } = await setup();
    const { number } = await seedAppeal(guild);
    const send = () => decide(guild, key, number, verb, { body: { reason: 'Once.' }, idempotencyKey: `decide-${number}` });
    const first = await send();
    expect(first.status).toBe(202);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect((await countWrites(db(), guild.id)).idempotency).toBe(1);

    await refused(guild.id, async () => {
      const again = await send();
      expect(again.status).toBe(202);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      // The appeal is decided: without the key a retry is a new request and is refused.
      const fresh = await decide(guild, key, number, verb, { body: { reason: 'Once.' } });
      expect(fresh.status).toBe(409);
      expect(fresh.body).toEqual({ error: 'APPEAL_NOT_OPEN', message: expect.any(String), status: DECIDED[verb] });
    });

    // The decision was applied meanwhile: the replay still answers the stored response, not a 409.
    await db().updateTable('appeals').set({ applying: false }).where('guild_id', '=', guild.id).where('number', '=', number).execute();
    await refused(guild.id, async () => {
      const later = await send();
      expect(later.status).toBe(202);
      expect(later.headers['idempotent-replayed']).toBe('true');
      expect(later.body).toEqual(first.body);
    });
    expect((await auditRows(guild.id)).map((a) => a.action)).toEqual([`appeals.${verb}`]);
    expect(await staffMessages(guild.id, number)).toHaveLength(1);
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED for the same key with another body, verb or appeal; nothing changes', async () => {
    const { guild, key } = await setup();
    const [number, other] = await seedMany(guild, ['open', 'open']);
    const first = await decide(guild, key, number!, 'approve', { body: { reason: 'Yes.' }, idempotencyKey: 'reuse' });
    expect(first.status).toBe(202);
    await refused(guild.id, async () => {
      for (const [verb, target, body] of [
        ['approve', number!, { reason: 'Yes!' }],
        ['approve', number!, undefined],
        ['approve', number!, { reason: null }],
        ['reject', number!, { reason: 'Yes.' }],
        ['approve', other!, { reason: 'Yes.' }],
        ['reject', other!, { reason: 'Yes.' }],
      ] as const) {
        const res = await decide(guild, key, target, verb, { body, idempotencyKey: 'reuse' });
        expect(res.status, `${verb} ${target} ${JSON.stringify(body)}`).toBe(422);
        expect(res.body).toEqual({ error: 'IDEMPOTENCY_KEY_REUSED', message: expect.any(String) });
      }
    });
    expect((await findAppeal(db(), guild.id, other!))!.status).toBe('open');
  });

  it('simultaneous requests with one key share one decision', async () => {
    const { guild, key } = await setup();
    const { number } = await seedAppeal(guild);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => decide(guild, key, number, 'reject', { body: { reason: 'No.' }, idempotencyKey: 'burst' })),
    );
    expect(results.map((r) => r.status)).toEqual([202, 202, 202, 202]);
    for (const r of results) expect(r.body).toEqual(results[0]!.body);
    expect(results.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(3);
    expect(await auditRows(guild.id)).toHaveLength(1);
    expect(await staffMessages(guild.id, number)).toHaveLength(1);
    expect((await countWrites(db(), guild.id)).idempotency).toBe(1);
  });

  it('a refused decision is not stored: the key works once the problem is fixed', async () => {
    const { guild, key } = await setup();
    const closed = await seedAppeal(guild, { status: 'closed' });
    const refusedRes = await decide(guild, key, closed.number, 'approve', { idempotencyKey: 'retry' });
    expect(refusedRes.status).toBe(409);
    expect((await countWrites(db(), guild.id)).idempotency).toBe(0);
    // The client fixes its request (the right appeal number) and retries with the same key.
    const open = await seedAppeal(guild);
    const fixed = await decide(guild, key, open.number, 'approve', { idempotencyKey: 'retry' });
    expect(fixed.status).toBe(202);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
    expect(fixed.body).toMatchObject({ number: open.number, status: 'approved' });
  });
});
