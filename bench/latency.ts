/** Latencies of one scenario in whole milliseconds: nearest-rank percentiles and the maximum (zeros when none). */
export interface LatencySummary {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function latencySummary(valuesMs: number[]): LatencySummary {
  const sorted = [...valuesMs].sort((a, b) => a - b);
  const at = (p: number) => Math.round(sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0);
  return { p50: at(50), p95: at(95), p99: at(99), max: Math.round(sorted.at(-1) ?? 0) };
}
