import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../harness/database.js';
import { eventually } from '../harness/eventually.js';
import { startBotBed, type BotBed } from './botHarness.js';
import { heavyDispatchHandler, sendHeavyDispatches } from './heavyDispatches.js';

// The bot's bound on what it holds: while its handling waits on an outage, it stops reading the gateway instead
// of queueing every dispatch Discord sends, and it reads the rest, in order and once, when the outage ends.

const MAX_QUEUED = 10;
const SENT = 1_000;
const database = useTestDatabase();
const { state, handlers } = heavyDispatchHandler();
let bed: BotBed;

beforeAll(async () => {
  bed = await startBotBed(database, new Date('2026-11-25T12:00:00Z'), {}, { handlers, maxQueued: MAX_QUEUED });
});
afterAll(() => bed?.close());

describe('back-pressure', () => {
  it('holds about its bound while the database is out, then handles every dispatch once in order', async () => {
    sendHeavyDispatches(bed, SENT);
    // Five tries take 1.5 s of backoff: ample time to read all of them if nothing held the reading back.
    await eventually(async () => state.attempts, (a) => a >= 5);
    const held = bed.bot.queued();
    expect(held).toBeGreaterThanOrEqual(MAX_QUEUED);
    // The bound plus what one read of the socket brings (64 kB).
    expect(held).toBeLessThan(MAX_QUEUED + 100);

    state.down = false;
    await eventually(async () => state.handled.length, (n) => n === SENT, 60_000);
    expect(state.handled).toEqual(Array.from({ length: SENT }, (_, i) => i + 1));
    expect(bed.bot.queued()).toBe(0);
  }, 90_000);
});
