import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { drawWinners, newSeed, seedHashOf, uniformFor } from '../../../src/giveaways/drawRules.js';

// A fixed set of seeds: the statistical checks below give the same answer on every run.
const seeds = (n: number) => Array.from({ length: n }, (_, i) => createHash('sha256').update(`giveaway-seed-${i}`).digest('hex'));
const users = (n: number) => Array.from({ length: n }, (_, i) => String(1_200_000_000_000_000_000n + BigInt(i)));

/** Pearson's chi-square statistic of observed counts against expected ones. */
const chiSquare = (observed: number[], expected: number[]) => observed.reduce((sum, o, i) => sum + (o - expected[i]!) ** 2 / expected[i]!, 0);

describe('the draw', () => {
  it('is reproducible from the seed and the draw number, whatever the order of the entrants', () => {
    const [seed] = seeds(1);
    const candidates = users(50).map((userId, i) => ({ userId, tickets: 1 + (i % 3) }));
    const winners = drawWinners(seed!, 1, candidates, 5);
    expect(winners).toHaveLength(5);
    expect(new Set(winners).size).toBe(5);
    expect(drawWinners(seed!, 1, [...candidates].reverse(), 5)).toEqual(winners);
    expect(drawWinners(seed!, 2, candidates, 5)).not.toEqual(winners);
    expect(drawWinners(seeds(2)[1]!, 1, candidates, 5)).not.toEqual(winners);
  });

  it('fewer candidates than winners: all of them win; none: no winner', () => {
    const [seed] = seeds(1);
    expect(drawWinners(seed!, 1, [{ userId: '1', tickets: 1 }, { userId: '2', tickets: 5 }], 5).sort()).toEqual(['1', '2']);
    expect(drawWinners(seed!, 1, [], 3)).toEqual([]);
  });

  it('commits to the seed by its SHA-256; fresh seeds are 256 random bits', () => {
    const { seed, seedHash } = newSeed();
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    expect(seedHash).toBe(createHash('sha256').update(Buffer.from(seed, 'hex')).digest('hex'));
    expect(seedHashOf(seed)).toBe(seedHash);
    expect(newSeed().seed).not.toBe(seed);
    const u = uniformFor(Buffer.from(seed, 'hex'), 1, '123');
    expect(u).toBeGreaterThan(0);
    expect(u).toBeLessThan(1);
  });

  it('without bonus roles every entrant is equally likely to win (chi-square over 4,000 seeds, 10 entrants)', () => {
    const candidates = users(10).map((userId) => ({ userId, tickets: 1 }));
    const counts = new Array<number>(10).fill(0);
    for (const seed of seeds(4000)) counts[candidates.findIndex((c) => c.userId === drawWinners(seed, 1, candidates, 1)[0])]! += 1;
    // 9 degrees of freedom: the 99.9th percentile is 27.88.
    expect(chiSquare(counts, new Array(10).fill(400))).toBeLessThan(27.88);
  });

  it('with bonus roles the first winner is drawn in proportion to tickets (1, 2, 5, 10 tickets)', () => {
    const tickets = [1, 2, 5, 10];
    const candidates = users(4).map((userId, i) => ({ userId, tickets: tickets[i]! }));
    const counts = [0, 0, 0, 0];
    for (const seed of seeds(6000)) counts[candidates.findIndex((c) => c.userId === drawWinners(seed, 1, candidates, 1)[0])]! += 1;
    const expected = tickets.map((t) => (6000 * t) / 18);
    // 3 degrees of freedom: the 99.9th percentile is 16.27.
    expect(chiSquare(counts, expected)).toBeLessThan(16.27);
  });

  it('draws without replacement: with two winners each pair appears as often as successive sampling predicts', () => {
    // Uniform weights: every one of the 6 unordered pairs of 4 entrants equally likely.
    const candidates = users(4).map((userId) => ({ userId, tickets: 1 }));
    const pairs = new Map<string, number>();
    for (const seed of seeds(3000)) {
      const key = drawWinners(seed, 1, candidates, 2).sort().join(',');
      pairs.set(key, (pairs.get(key) ?? 0) + 1);
    }
    expect(pairs.size).toBe(6);
    // 5 degrees of freedom: the 99.9th percentile is 20.52.
    expect(chiSquare([...pairs.values()], new Array(6).fill(500))).toBeLessThan(20.52);
  });
});
