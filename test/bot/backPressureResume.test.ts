import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatchHandler } from '../../process/bot/handler.js';
import { useTestDatabase } from '../harness/database.js';
import { eventually } from '../harness/eventually.js';
import { startBotBed, type BotBed } from './botHarness.js';

// Back-pressure that lasts past a heartbeat: the paused connection misses its heartbeat ACK, the library drops it
// and resumes, and Discord replays what the bot had not read. Still every dispatch once, in order.

const MAX_QUEUED = 10;
const SENT = 300;
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
  bed = await startBotBed(database, new Date('2026-11-25T12:00:00Z'), { heartbeatIntervalMs: 500 }, { handlers, maxQueued: MAX_QUEUED });
});
afterAll(() => bed?.close());

describe('back-pressure past a heartbeat', () => {
  it('resumes the session and handles every dispatch once, in order, when the outage ends', async () => {
    const padding = 'x'.repeat(1_000);
    const resumed = once(bed.gateway.events, 'resume');
    for (let n = 1; n <= SENT; n += 1) bed.gateway.dispatch('HEAVY', { n, padding });
    await resumed;
    expect(bed.bot.queued()).toBeLessThan(SENT);
    down = false;
    await eventually(async () => handled.length, (n) => n >= SENT, 60_000);
    expect(handled).toEqual(Array.from({ length: SENT }, (_, i) => i + 1));
    expect(bed.gateway.identifies).toHaveLength(1);
    expect(attempts).toBeGreaterThan(SENT);
  }, 90_000);
});
