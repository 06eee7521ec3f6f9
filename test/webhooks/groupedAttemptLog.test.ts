import { describe, expect, it } from 'vitest';
import { claimFirstAttempts, deliveriesAwaitingFirstAttempt, recordFirstAttempts } from '../../db/webhooks/batches.js';
import { createFirstAttemptLog } from '../../src/webhooks/firstAttempts.js';
import { groupedWrites } from '../../src/webhooks/groupedWrites.js';
import { useTestDatabase } from '../harness/database.js';
import { attemptsOf, claimedBatch } from './batchFixture.js';

const database = useTestDatabase();

const failed = { ok: false, statusCode: 500, error: null, responseExcerpt: 'no', durationMs: 3 };
const succeeded = { ok: true, statusCode: 204, error: null, responseExcerpt: '', durationMs: 2 };

describe('grouped writes', () => {
  it('send the items asked for in one tick in one statement, then those asked for meanwhile in the next, each answered in order', async () => {
    const statements: number[][] = [];
    let release: () => void = () => {};
    const write = groupedWrites(async (items: number[]) => {
      statements.push(items);
      if (statements.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return items.map((n) => n * 10);
    });
    const first = [1, 2, 3].map(write);
    await Promise.resolve();
    const second = [4, 5].map(write);
    release();
    expect(await Promise.all([...first, ...second])).toEqual([10, 20, 30, 40, 50]);
    expect(statements).toEqual([[1, 2, 3], [4, 5]]);
  });

  it("fail every item of a failed statement with its error, and go on with the next statement's", async () => {
    const write = groupedWrites(async (items: number[]) => {
      if (items.includes(13)) throw new Error('statement failed');
      return items;
    });
    const failing = [12, 13].map((n) => write(n).catch((err: Error) => err.message));
    expect(await Promise.all(failing)).toEqual(['statement failed', 'statement failed']);
    expect(await write(14)).toBe(14);
  });
});

describe('the first attempt log', () => {
  it('claims each delivery once, however many ask for it in one statement or after it', async () => {
    const { batchId, endpointId } = await claimedBatch(database.db, 3, 'http://127.0.0.1:9/hooks');
    const [a, b, c] = (await deliveriesAwaitingFirstAttempt(database.db, batchId, endpointId)).map((d) => d.id);
    const at = new Date('2026-11-01T10:00:00Z');
    expect(await claimFirstAttempts(database.db, [{ deliveryId: a!, at }, { deliveryId: b!, at }, { deliveryId: a!, at }])).toEqual([true, true, false]);
    const log = createFirstAttemptLog(database.db);
    expect(await Promise.all([a!, b!, c!].map((deliveryId) => log.claim({ deliveryId, at })))).toEqual([false, false, true]);
    const claimed = await deliveriesAwaitingFirstAttempt(database.db, batchId, endpointId);
    expect(claimed.map((d) => d.firstDialledAt)).toEqual([at, at, at]);
  });

  it("logs each delivery's attempt once with its outcome, a success closing the delivery and a failure leaving it for its retry run", async () => {
    const { batchId, endpointId, eventIds } = await claimedBatch(database.db, 3, 'http://127.0.0.1:9/hooks');
    const [a, b, c] = (await deliveriesAwaitingFirstAttempt(database.db, batchId, endpointId)).map((d) => d.id);
    const at = new Date('2026-11-01T10:00:00Z');
    const log = createFirstAttemptLog(database.db);
    await Promise.all([
      log.record({ deliveryId: a!, attempt: 1, attemptedAt: at, ...succeeded }),
      log.record({ deliveryId: b!, attempt: 1, attemptedAt: at, ...failed }),
      // Logged twice (a retried activity finding it logged): the first stands, the count moves once.
      log.record({ deliveryId: b!, attempt: 1, attemptedAt: at, ...succeeded }),
    ]);
    await recordFirstAttempts(database.db, [{ deliveryId: b!, attempt: 1, attemptedAt: at, ...succeeded }]);

    expect(await attemptsOf(database.db, endpointId, eventIds[0]!)).toEqual([{ attempt: 1, status_code: 204, error: null, attempted_at: at, status: 'succeeded' }]);
    expect(await attemptsOf(database.db, endpointId, eventIds[1]!)).toEqual([{ attempt: 1, status_code: 500, error: null, attempted_at: at, status: 'pending' }]);
    expect(await attemptsOf(database.db, endpointId, eventIds[2]!)).toEqual([]);
    const deliveries = await database.db.selectFrom('webhook_deliveries').select(['id', 'attempts', 'status', 'completed_at']).where('id', 'in', [a!, b!, c!]).orderBy('id').execute();
    expect(deliveries).toEqual([
      { id: a, attempts: 1, status: 'succeeded', completed_at: at },
      { id: b, attempts: 1, status: 'pending', completed_at: null },
      { id: c, attempts: 0, status: 'pending', completed_at: null },
    ]);
  });
});
