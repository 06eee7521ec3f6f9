import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DispatchHandler } from '../../process/bot/handler.js';
import { useTestDatabase } from '../harness/database.js';
import { startBotBed, type BotBed } from './botHarness.js';

// How the bot runs its handlers: one at a time in the gateway's order, a failing one logged and passed over,
// and a RECONNECT from Discord followed by a resume, not a new session.

const database = useTestDatabase();
const seen: string[] = [];
const handlers: Record<string, DispatchHandler> = {
  FAST: async (d) => void seen.push(`fast ${String((d as { n: number }).n)}`),
  BROKEN: () => Promise.reject(new Error('the database is down')),
};
let bed: BotBed;

beforeAll(async () => {
  bed = await startBotBed(database, new Date('2026-11-25T12:00:00Z'), {}, { handlers });
});
afterAll(() => bed?.close());

describe('the dispatch queue', () => {
  it('handles dispatches one at a time in the order received, whatever each one takes', async () => {
    // The first event is slow (it waits for the test's release): the second must still wait for it.
    let release: () => void = () => undefined;
    const slowStarted = new Promise<void>((resolve) => {
      handlers.SLOW = (d) =>
        new Promise<void>((done) => {
          release = done;
          resolve();
        }).then(() => void seen.push(`slow ${String((d as { n: number }).n)}`));
    });
    const first = bed.dispatch('SLOW', { n: 1 });
    const second = bed.dispatch('FAST', { n: 2 });
    await slowStarted;
    expect(seen).toEqual([]);
    release();
    await Promise.all([first, second]);
    expect(seen).toEqual(['slow 1', 'fast 2']);
  });

  it('passes over a failing handler and goes on with the next dispatch; an event without a handler is skipped', async () => {
    seen.length = 0;
    await bed.dispatch('BROKEN', {});
    await bed.dispatch('NO_SUCH_EVENT', {});
    await bed.dispatch('FAST', { n: 3 });
    expect(seen).toEqual(['fast 3']);
  });

  it("answers Discord's RECONNECT by resuming the same session, then goes on handling dispatches", async () => {
    seen.length = 0;
    const resumed = once(bed.gateway.events, 'resume');
    bed.gateway.reconnect();
    expect(await resumed).toEqual([{ sessionId: bed.gateway.sessionOf()!.id, seq: expect.any(Number) }]);
    await bed.dispatch('FAST', { n: 4 });
    expect(seen).toEqual(['fast 4']);
    expect(bed.gateway.identifies).toHaveLength(1);
  });
});
