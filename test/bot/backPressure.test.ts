import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatchHandler } from '../../process/bot/handler.js';
import { useTestDatabase } from '../harness/database.js';
import { eventually } from '../harness/eventually.js';
import { startBotBed, type BotBed } from './botHarness.js';

// The bot's bound on what it holds: while its handling waits on an outage, it stops reading the gateway instead
// of queueing every dispatch Discord sends, and it reads the rest, in order and once, when the outage ends.

const MAX_QUEUED = 10;
const SENT = 1_000;
const database = useTestDatabase();
let down = true;
let attempts = 0;
const handled: number[] = [];
const handlers: Record<string, DispatchHandler> = {
  HEAVY: async (d) => {
    attempts += 1;
    if (down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    handled.push((d as { n: number }).n);
  },
};
let bed: BotBed;

beforeAll(async () => {
  bed = await startBotBed(database, new Date('2026-11-25T12:00:00Z'), {}, { handlers, maxQueued: MAX_QUEUED });
});
afterAll(() => bed?.close());

describe('back-pressure', () => {
  it('holds about its bound while the database is out, then handles every dispatch once in order', async () => {
    // About 1 kB each: a thousand of them are far more than one read of the socket.
    const padding = 'x'.repeat(1_000);
    for (let n = 1; n <= SENT; n += 1) bed.gateway.dispatch('HEAVY', { n, padding });
    // Five tries take 1.5 s of backoff: ample time to read all of them if nothing held the reading back.
    await eventually(async () => attempts, (a) => a >= 5);
    const held = bed.bot.queued();
    expect(held).toBeGreaterThanOrEqual(MAX_QUEUED);
    // The bound plus what one read of the socket brings (64 kB).
    expect(held).toBeLessThan(MAX_QUEUED + 100);

    down = false;
    await eventually(async () => handled.length, (n) => n === SENT, 60_000);
    expect(handled).toEqual(Array.from({ length: SENT }, (_, i) => i + 1));
    expect(bed.bot.queued()).toBe(0);
  }, 90_000);
});
