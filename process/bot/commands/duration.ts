import { Refusal } from '../../../src/core/refusal.js';

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3_600, d: 86_400, w: 604_800 };

/** What a member types for a duration: amounts with a unit, largest first or not ("10m", "1h30m", "2d", "1w 3d"). */
const DURATION = /^(?:\s*\d{1,7}\s*[smhdw])+\s*$/i;

/**
 * A duration option in seconds; a Refusal in words for anything else. The bounds are the API's (its request schema
 * checks them), so only the shape is checked here.
 */
export function parseDuration(typed: string, example: string): number {
  if (!DURATION.test(typed)) throw new Refusal('INVALID_DURATION', `Give a duration such as ${example} (s, m, h, d or w).`);
  let seconds = 0;
  for (const [, amount, unit] of typed.toLowerCase().matchAll(/(\d+)\s*([smhdw])/g)) seconds += Number(amount) * UNITS[unit!]!;
  return seconds;
}

/** A length of time in words, largest units first ("1 day 2 hours"). */
export function durationWords(seconds: number): string {
  const parts: string[] = [];
  let left = seconds;
  for (const [name, size] of [['week', 604_800], ['day', 86_400], ['hour', 3_600], ['minute', 60], ['second', 1]] as const) {
    const n = Math.floor(left / size);
    if (n > 0) parts.push(`${n} ${name}${n === 1 ? '' : 's'}`);
    left -= n * size;
  }
  return parts.join(' ') || '0 seconds';
}
