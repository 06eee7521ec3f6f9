/**
 * The level curve: going from level L to L + 1 takes 5·L² + 50·L + 100 XP (level 0 → 1 takes 100 XP,
 * 1 → 2 takes 155, 10 → 11 takes 1,100). The total for a level is the sum of the steps below it.
 */
export const xpForNextLevel = (level: number): number => 5 * level * level + 50 * level + 100;

/**
 * Total XP needed to reach `level` from zero: Σ_{l<L} (5l² + 50l + 100), in closed form. In BigInt because
 * the cubic product passes 2^53 long before the total does (from level ~120,000 on).
 */
export function totalXpForLevel(level: number): number {
  const l = BigInt(level);
  return Number((5n * (l - 1n) * l * (2n * l - 1n)) / 6n + 25n * (l - 1n) * l + 100n * l);
}

export interface LevelPosition {
  level: number;
  xpIntoLevel: number;
  xpForNext: number;
  /** 0 to 1 inside the current level. */
  progress: number;
}

/** Where a total of XP stands on the curve. */
export function levelFromXp(xp: number): LevelPosition {
  // The cube root of the dominant term gives a guess within a level or two; step to the exact level.
  let level = Math.max(0, Math.floor(Math.cbrt((3 * xp) / 5)) - 2);
  while (totalXpForLevel(level + 1) <= xp) level++;
  while (level > 0 && totalXpForLevel(level) > xp) level--;
  const xpIntoLevel = xp - totalXpForLevel(level);
  const xpForNext = xpForNextLevel(level);
  return { level, xpIntoLevel, xpForNext, progress: xpIntoLevel / xpForNext };
}

/** XP is never negative and never leaves the range JSON numbers carry exactly (DESIGN invariant 6). */
export const clampXp = (xp: number): number => Math.min(Math.max(0, xp), Number.MAX_SAFE_INTEGER);

export type XpChangeType = 'add' | 'remove' | 'set';
export type XpUnit = 'xp' | 'levels';

/**
 * The XP after a change. With unit `levels` the member moves by (or to) whole levels and keeps the XP
 * already earned inside the current level, capped so it stays inside the new level.
 */
export function applyXpChange(currentXp: number, change: { type: XpChangeType; unit: XpUnit; amount: number }): number {
  if (change.unit === 'xp') {
    if (change.type === 'add') return clampXp(currentXp + change.amount);
    if (change.type === 'remove') return clampXp(currentXp - change.amount);
    return clampXp(change.amount);
  }
  const { level, xpIntoLevel } = levelFromXp(currentXp);
  const target =
    change.type === 'add' ? level + change.amount : change.type === 'remove' ? Math.max(0, level - change.amount) : change.amount;
  const kept = Math.min(xpIntoLevel, xpForNextLevel(target) - 1);
  return clampXp(totalXpForLevel(target) + kept);
}
