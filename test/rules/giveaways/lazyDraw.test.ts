import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { drawWinners, drawWinnersLazily, type Candidate } from '../../../src/giveaways/drawRules.js';

// Fixed seeds, and an ineligible subset derived from each seed: the same cases on every run.
const seeds = (n: number) => Array.from({ length: n }, (_, i) => createHash('sha256').update(`lazy-draw-seed-${i}`).digest('hex'));
const users = (n: number) => Array.from({ length: n }, (_, i) => String(1_300_000_000_000_000_000n + BigInt(i)));
/** A number in [0, 1) fixed by the label: stands in for "left the server or got a blocked role". */
const fraction = (label: string) => createHash('sha256').update(label).digest().readUInt32BE(0) / 2 ** 32;

/** An eligibility check over a fixed ineligible set that records every batch it is asked about. */
function checker(ineligible: Set<string>) {
  const batches: string[][] = [];
  const check = async (batch: Candidate[]) => {
    batches.push(batch.map((c) => c.userId));
    return batch.map((c) => !ineligible.has(c.userId));
  };
  return { check, batches };
}

describe('the lazy draw (eligibility checked walking the draw order)', () => {
  it('picks exactly the winners of filtering the eligible first and drawing after, over 300 fixed seeds', async () => {
    let compared = 0;
    for (const [n, seed] of seeds(300).entries()) {
      const size = 1 + (n % 60);
      const candidates = users(size).map((userId, i) => ({ userId, tickets: 1 + ((i * 7 + n) % 5) }));
      // Between none and nearly all of the entrants ineligible, depending on the seed.
      const share = fraction(`${seed}:share`);
      const ineligible = new Set(candidates.filter((c) => fraction(`${seed}:${c.userId}`) < share).map((c) => c.userId));
      const count = 1 + (n % 12);
      const { check, batches } = checker(ineligible);
      const lazy = await drawWinnersLazily(seed, 1 + (n % 3), candidates, count, check);
      const eligible = candidates.filter((c) => !ineligible.has(c.userId));
      expect(lazy.winnerIds).toEqual(drawWinners(seed, 1 + (n % 3), eligible, count));
      expect(lazy.checked).toBe(batches.flat().length);
      expect(new Set(batches.flat()).size).toBe(lazy.checked);
      expect(batches.every((b) => b.length <= 32)).toBe(true);
      // A shortfall is exact: every entrant was checked.
      if (lazy.winnerIds.length < count) expect(lazy.checked).toBe(candidates.length);
      compared += 1;
    }
    expect(compared).toBe(300);
  });

  it('checks only the head of the draw order when most entrants are eligible', async () => {
    const [seed] = seeds(1);
    const candidates = users(100_000).map((userId, i) => ({ userId, tickets: i % 10 === 0 ? 5 : 1 }));
    const ineligible = new Set(candidates.filter((_, i) => i % 20 === 0).map((c) => c.userId));
    const { check } = checker(ineligible);
    const lazy = await drawWinnersLazily(seed!, 1, candidates, 50, check);
    expect(lazy.winnerIds).toEqual(drawWinners(seed!, 1, candidates.filter((c) => !ineligible.has(c.userId)), 50));
    expect(lazy.checked).toBeGreaterThanOrEqual(50);
    expect(lazy.checked).toBeLessThan(200);
  });

  it('no candidates, or none eligible: no winner, and every candidate checked', async () => {
    const [seed] = seeds(1);
    expect(await drawWinnersLazily(seed!, 1, [], 3, checker(new Set()).check)).toEqual({ winnerIds: [], checked: 0 });
    const candidates = users(70).map((userId) => ({ userId, tickets: 1 }));
    const { check, batches } = checker(new Set(candidates.map((c) => c.userId)));
    expect(await drawWinnersLazily(seed!, 1, candidates, 1, check)).toEqual({ winnerIds: [], checked: 70 });
    // Nothing eligible so far: the batches grow toward 32 look-ups at once.
    expect(batches.map((b) => b.length)).toEqual([4, 5, 10, 20, 31]);
  });
});
