import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../harness/database.js';
import { eventually } from '../harness/eventually.js';
import { startBotBed, type BotBed } from './botHarness.js';
import { heavyDispatchHandler, sendHeavyDispatches } from './heavyDispatches.js';

// Back-pressure that lasts past a heartbeat: the paused connection misses its heartbeat ACK, the library drops it
// and resumes, and Discord replays what the bot had not read. Still every dispatch once, in order.

const MAX_QUEUED = 10;
const SENT = 300;
const database = useTestDatabase();
const { state, handlers } = heavyDispatchHandler();
let bed: BotBed;

beforeAll(async () => {
  bed = await startBotBed(database, new Date('2026-11-25T12:00:00Z'), { heartbeatIntervalMs: 500 }, { handlers, maxQueued: MAX_QUEUED });
});
afterAll(() => bed?.close());

describe('back-pressure past a heartbeat', () => {
  it('resumes the session and handles every dispatch once, in order, when the outage ends', async () => {
    const resumed = once(bed.gateway.events, 'resume');
    sendHeavyDispatches(bed, SENT);
    await resumed;
    expect(bed.bot.queued()).toBeLessThan(SENT);
    state.down = false;
    await eventually(async () => state.handled.length, (n) => n >= SENT, 60_000);
    expect(state.handled).toEqual(Array.from({ length: SENT }, (_, i) => i + 1));
    expect(bed.gateway.identifies).toHaveLength(1);
    expect(state.attempts).toBeGreaterThan(SENT);
  }, 90_000);
});
