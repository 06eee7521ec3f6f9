import { describe, expect, it } from 'vitest';
import { KeyHitCounter } from '../../../api/keyHitCounter.js';
import { readHits } from '../../../db/shared/rateLimits.js';
import { useTestDatabase } from '../../harness/database.js';

const database = useTestDatabase();
const WINDOW = new Date('2026-11-22T12:00:00Z');
const NEXT_WINDOW = new Date('2026-11-22T12:01:00Z');
let buckets = 0;
const newBucket = () => `key:test-${++buckets}`;

describe('KeyHitCounter', () => {
  it('writes the first hit of a window at once and later ones in one batch', async () => {
    const counter = new KeyHitCounter(database.db, 60_000);
    const bucket = newBucket();
    expect(await counter.hit(bucket, WINDOW)).toBe(1);
    expect(await readHits(database.db, bucket, WINDOW)).toBe(1);
    expect(await counter.hit(bucket, WINDOW)).toBe(2);
    expect(await counter.hit(bucket, WINDOW)).toBe(3);
    expect(await readHits(database.db, bucket, WINDOW)).toBe(1);
    await counter.flush();
    expect(await readHits(database.db, bucket, WINDOW)).toBe(3);
  });

  it('counts simultaneous hits exactly: every count once, and the stored total matches', async () => {
    const counter = new KeyHitCounter(database.db, 5);
    const bucket = newBucket();
    const counts = await Promise.all(Array.from({ length: 200 }, () => counter.hit(bucket, WINDOW)));
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    await counter.flush();
    expect(await readHits(database.db, bucket, WINDOW)).toBe(200);
  });

  it('writes pending hits by itself within the flush interval', async () => {
    const counter = new KeyHitCounter(database.db, 20);
    const bucket = newBucket();
    for (let i = 0; i < 5; i++) await counter.hit(bucket, WINDOW);
    const deadline = Date.now() + 2_000;
    while ((await readHits(database.db, bucket, WINDOW)) < 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(await readHits(database.db, bucket, WINDOW)).toBe(5);
  });

  it('starts from the stored count when another instance counted first, and learns its later hits when it writes', async () => {
    const bucket = newBucket();
    const first = new KeyHitCounter(database.db, 60_000);
    for (let i = 0; i < 10; i++) await first.hit(bucket, WINDOW);
    await first.flush();
    const second = new KeyHitCounter(database.db, 60_000);
    expect(await second.hit(bucket, WINDOW)).toBe(11);
    for (let i = 0; i < 5; i++) await first.hit(bucket, WINDOW);
    await first.flush();
    expect(await second.hit(bucket, WINDOW)).toBe(12);
    await second.flush();
    expect(await second.hit(bucket, WINDOW)).toBe(18);
  });

  it('keeps windows apart: a new window starts from zero', async () => {
    const counter = new KeyHitCounter(database.db, 60_000);
    const bucket = newBucket();
    await counter.hit(bucket, WINDOW);
    await counter.hit(bucket, WINDOW);
    expect(await counter.hit(bucket, NEXT_WINDOW)).toBe(1);
    await counter.flush();
    expect(await readHits(database.db, bucket, WINDOW)).toBe(2);
    expect(await readHits(database.db, bucket, NEXT_WINDOW)).toBe(1);
  });
});
