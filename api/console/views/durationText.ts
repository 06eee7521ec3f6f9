const UNITS: Array<[number, string]> = [
  [86_400, 'day'],
  [3_600, 'hour'],
  [60, 'minute'],
  [1, 'second'],
];

/** A duration in the largest unit that divides it exactly: 86400 → "1 day", 5400 → "90 minutes". */
export function durationText(seconds: number): string {
  const [size, name] = UNITS.find(([s]) => seconds % s === 0)!;
  const n = seconds / size;
  return `${n.toLocaleString('en')} ${name}${n === 1 ? '' : 's'}`;
}
