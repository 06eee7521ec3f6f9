import { describe, expect, it } from 'vitest';
import { applyXpChange, clampXp, levelFromXp, totalXpForLevel, xpForNextLevel } from '../../../src/levels/curve.js';

const MAX = Number.MAX_SAFE_INTEGER;

/**
 * Reference totals computed independently of the closed form: exact BigInt running sums of the step
 * 5·l² + 50·l + 100, up to the first level whose total passes 2^53-1.
 */
const REFERENCE: bigint[] = [0n];
for (let l = 0; REFERENCE[l]! <= BigInt(MAX); l++) {
  const step = 5n * BigInt(l) ** 2n + 50n * BigInt(l) + 100n;
  REFERENCE.push(REFERENCE[l]! + step);
}
const exactTotal = (level: number): number => Number(REFERENCE[level]!);
/** The highest level reachable with XP capped at 2^53-1. */
const TOP_LEVEL = REFERENCE.length - 2;

describe('xpForNextLevel and totalXpForLevel', () => {
  it.each([
    [0, 100],
    [1, 155],
    [2, 220],
    [9, 955],
    [10, 1_100],
    [100, 55_100],
  ])('going from level %i to the next takes %i XP', (level, xp) => {
    expect(xpForNextLevel(level)).toBe(xp);
  });

  it.each([
    [0, 0],
    [1, 100],
    [2, 255],
    [3, 475],
    [9, 3_720],
    [10, 4_675],
    [11, 5_775],
  ])('level %i needs %i XP in total', (level, xp) => {
    expect(totalXpForLevel(level)).toBe(xp);
  });

  it('matches the running sum of the steps for every level up to 2,000', () => {
    for (let level = 0; level <= 2_000; level++) expect(totalXpForLevel(level)).toBe(exactTotal(level));
  });

  it('has its top level at 175,483 (the reference agrees with the value hand-checked below)', () => {
    expect(TOP_LEVEL).toBe(175_483);
    expect(exactTotal(TOP_LEVEL)).toBe(9_007_148_242_020_775);
  });

  // BUG (src/levels/curve.ts, totalXpForLevel): the closed form multiplies 5·(l-1)·l·(2l-1) before
  // dividing by 6; above about level 96,000 that product passes 2^53 and loses precision. From level
  // 121,678 on, about one level in four (14,348 of the 53,806 up to 175,483) gets a total off by one or
  // with a fractional .5 (121,678 → 3002846418709724.5). Every total here is below 2^53-1, so each must
  // be exact. 121,678, 121,682, 175,468 and 175,477 fail until it is fixed; the others pass today.
  it.each([50_000, 96_000, 121_677, 121_678, 121_682, 150_000, 175_468, 175_477, 175_483])(
    'gives the exact integer total for level %i (all below 2^53-1)',
    (level) => {
      expect(totalXpForLevel(level)).toBe(exactTotal(level));
    },
  );
});

describe('levelFromXp', () => {
  it.each([
    [0, 0, 0, 100],
    [1, 0, 1, 100],
    [99, 0, 99, 100],
    [100, 1, 0, 155],
    [254, 1, 154, 155],
    [255, 2, 0, 220],
    [474, 2, 219, 220],
    [475, 3, 0, 295],
    [3_719, 8, 819, 820],
    [3_720, 9, 0, 955],
    [4_674, 9, 954, 955],
    [4_675, 10, 0, 1_100],
    [5_775, 11, 0, 1_255],
    [MAX, 175_483, 51_012_720_216, 153_980_190_695],
  ])('%i XP is level %i with %i into it, %i for the next', (xp, level, xpIntoLevel, xpForNext) => {
    expect(levelFromXp(xp)).toEqual({ level, xpIntoLevel, xpForNext, progress: xpIntoLevel / xpForNext });
  });

  it.each([
    [50, 0.5],
    [0, 0],
    [99, 0.99],
    [255, 0],
    [177, 77 / 155],
  ])('reports progress inside the level for %i XP as %d', (xp, progress) => {
    expect(levelFromXp(xp).progress).toBe(progress);
  });

  it('lands exactly on every threshold up to level 3,000, and one XP short of each stays below', () => {
    for (let level = 1; level <= 3_000; level++) {
      const threshold = exactTotal(level);
      expect(levelFromXp(threshold)).toMatchObject({ level, xpIntoLevel: 0 });
      expect(levelFromXp(threshold - 1)).toMatchObject({ level: level - 1, xpIntoLevel: xpForNextLevel(level - 1) - 1 });
    }
  });

  it.each([10_000, 50_000, 100_000, 121_677])('lands exactly on the threshold of level %i', (level) => {
    expect(levelFromXp(exactTotal(level))).toMatchObject({ level, xpIntoLevel: 0 });
    expect(levelFromXp(exactTotal(level) - 1)).toMatchObject({ level: level - 1, xpIntoLevel: xpForNextLevel(level - 1) - 1 });
  });

  // BUG (same cause as totalXpForLevel above): at these thresholds levelFromXp answers the wrong level
  // (121,682 and 175,468 → one level lower) or a fractional xpIntoLevel (121,678 and 175,477 → 0.5).
  // Those four fail until fixed; 150,000 and 175,483 pass today.
  it.each([121_678, 121_682, 150_000, 175_468, 175_477, 175_483])('lands exactly on the threshold of high level %i', (level) => {
    const at = levelFromXp(exactTotal(level));
    expect(at).toMatchObject({ level, xpIntoLevel: 0 });
    const below = levelFromXp(exactTotal(level) - 1);
    expect(below).toMatchObject({ level: level - 1, xpIntoLevel: xpForNextLevel(level - 1) - 1 });
  });
});

describe('clampXp', () => {
  it.each([
    [-1, 0],
    [-MAX, 0],
    [0, 0],
    [1, 1],
    [MAX, MAX],
    [MAX + 2, MAX],
    [2 ** 60, MAX],
  ])('clamps %d to %d', (xp, expected) => {
    expect(clampXp(xp)).toBe(expected);
  });
});

type Change = Parameters<typeof applyXpChange>[1];

describe('applyXpChange in XP', () => {
  it.each<[number, Change, number]>([
    [100, { type: 'add', unit: 'xp', amount: 50 }, 150],
    [0, { type: 'add', unit: 'xp', amount: 0 }, 0],
    [MAX - 10, { type: 'add', unit: 'xp', amount: 10 }, MAX],
    [MAX - 10, { type: 'add', unit: 'xp', amount: 20 }, MAX],
    [MAX, { type: 'add', unit: 'xp', amount: 2_000_000_000 }, MAX],
    [100, { type: 'remove', unit: 'xp', amount: 30 }, 70],
    [100, { type: 'remove', unit: 'xp', amount: 100 }, 0],
    [100, { type: 'remove', unit: 'xp', amount: 101 }, 0],
    [0, { type: 'remove', unit: 'xp', amount: 2_000_000_000 }, 0],
    [500, { type: 'set', unit: 'xp', amount: 42 }, 42],
    [500, { type: 'set', unit: 'xp', amount: 0 }, 0],
    [0, { type: 'set', unit: 'xp', amount: 2_000_000_000 }, 2_000_000_000],
    [0, { type: 'set', unit: 'xp', amount: -5 }, 0],
    [0, { type: 'set', unit: 'xp', amount: 2 ** 60 }, MAX],
  ])('%i XP, %o → %i', (current, change, expected) => {
    expect(applyXpChange(current, change)).toBe(expected);
  });
});

describe('applyXpChange in levels (keeps the XP inside the level, capped below the new level size)', () => {
  it.each<[string, number, Change, number]>([
    ['add 1 from 0', 0, { type: 'add', unit: 'levels', amount: 1 }, 100],
    ['add 1 keeping 50', 50, { type: 'add', unit: 'levels', amount: 1 }, 150],
    ['add 2 keeping 50', 150, { type: 'add', unit: 'levels', amount: 2 }, 525],
    ['add 1 keeping 154 (fits in 220)', 254, { type: 'add', unit: 'levels', amount: 1 }, 409],
    ['add 0 changes nothing', 254, { type: 'add', unit: 'levels', amount: 0 }, 254],
    ['add 10 from level 0 with 99', 99, { type: 'add', unit: 'levels', amount: 10 }, 4_774],
    ['remove 1 caps 154 at 99', 254, { type: 'remove', unit: 'levels', amount: 1 }, 99],
    ['remove 1 keeps 154 (fits in 155)', 409, { type: 'remove', unit: 'levels', amount: 1 }, 254],
    ['remove 1 caps 219 at 154', 474, { type: 'remove', unit: 'levels', amount: 1 }, 254],
    ['remove more levels than held stops at 0', 525, { type: 'remove', unit: 'levels', amount: 5 }, 50],
    ['remove from 0', 0, { type: 'remove', unit: 'levels', amount: 1 }, 0],
    ['remove at the threshold', 255, { type: 'remove', unit: 'levels', amount: 1 }, 100],
    ['set 0 keeping 50', 525, { type: 'set', unit: 'levels', amount: 0 }, 50],
    ['set 10 keeping 50', 150, { type: 'set', unit: 'levels', amount: 10 }, 4_725],
    ['set 2 caps 954 at 219', 4_674, { type: 'set', unit: 'levels', amount: 2 }, 474],
    ['set the same level', 4_674, { type: 'set', unit: 'levels', amount: 9 }, 4_674],
    ['set the top level', 0, { type: 'set', unit: 'levels', amount: 175_483 }, 9_007_148_242_020_775],
    ['set past the top level caps at 2^53-1', 0, { type: 'set', unit: 'levels', amount: 175_484 }, MAX],
    ['add 2e9 levels caps at 2^53-1', 0, { type: 'add', unit: 'levels', amount: 2_000_000_000 }, MAX],
    ['add 1 at the cap stays at 2^53-1', MAX, { type: 'add', unit: 'levels', amount: 1 }, MAX],
    ['remove 1 at the cap', MAX, { type: 'remove', unit: 'levels', amount: 1 }, 9_007_045_276_305_171],
  ])('%s: %i XP, %o → %i', (_label, current, change, expected) => {
    expect(applyXpChange(current, change)).toBe(expected);
  });

  // BUG (see totalXpForLevel): `set` to level 121,678 in levels unit answers 3002846418709724.5, a
  // fractional XP total (the API accepts amounts up to 2,000,000,000), which is then written to the
  // member's XP. The exact total is 3,002,846,418,709,725. 121,678, 121,682 and 175,468 fail until the
  // curve is exact; 150,000 passes today.
  it.each([121_678, 121_682, 150_000, 175_468])('set to high level %i gives its exact integer total', (level) => {
    const xp = applyXpChange(0, { type: 'set', unit: 'levels', amount: level });
    expect(Number.isSafeInteger(xp)).toBe(true);
    expect(xp).toBe(exactTotal(level));
  });
});
