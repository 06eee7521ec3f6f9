import { setTimeout as sleep } from 'node:timers/promises';

/** Interaction callbacks and webhook (follow-up) requests are outside Discord's global limit. */
const OUTSIDE_GLOBAL = /\/(interactions|webhooks)\//;

/**
 * Discord's global limit kept over any second, not per window: @discordjs/rest counts fixed one-second windows that
 * start when it likes, Discord counts its own, and two unaligned fixed windows let up to twice the limit into one of
 * Discord's (the fake showed it: 50 requests in 260 ms from a client limited to 45 a second). A global 429 stops the
 * whole fleet (banLatch.ts), so every request waits here until fewer than `perSecond` left in the last second; below
 * Discord's 50 for the difference between sending and arriving.
 */
export function createGlobalPace(perSecond: number, now: () => number = () => performance.now()): (url: string) => Promise<void> {
  const sent: number[] = [];
  let turn: Promise<void> = Promise.resolve();
  return (url) => {
    if (OUTSIDE_GLOBAL.test(url)) return Promise.resolve();
    const mine = turn.then(async () => {
      for (;;) {
        const at = now();
        while (sent.length > 0 && sent[0]! <= at - 1000) sent.shift();
        if (sent.length < perSecond) return void sent.push(at);
        await sleep(sent[0]! + 1000 - at);
      }
    });
    turn = mine;
    return mine;
  };
}

/** What this service allows itself: Discord's 50 less a margin for the time between sending and arriving. */
export const GLOBAL_REQUESTS_PER_SECOND = 45;
