import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { percentilesOf, type LoadResult } from './load.js';

export interface PacedLoadOptions {
  url: string;
  ratePerSecond: number;
  durationSeconds: number;
  headers: Record<string, string>;
  /** The path of the next request. */
  pathOf(): string;
}

/**
 * An open-loop GET load: requests leave on a fixed schedule (`ratePerSecond`, spread evenly, not in bursts), whether
 * or not earlier ones answered, as a production api's clients send them. Each latency runs from the request's place
 * in the schedule, so a stall that delays sending counts against the api too (no coordinated omission).
 * (autocannon's own rate sends each second's quota in a burst at the second's start, which measures a saturated api.)
 */
export async function runPacedLoad(options: PacedLoadOptions): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const latencies: number[] = [];
  const answers: Promise<void>[] = [];
  let non2xx = 0;
  let errors = 0;
  const send = (due: number) =>
    new Promise<void>((resolve) => {
      const req = request(new URL(options.pathOf(), options.url), { agent, headers: options.headers }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300) latencies.push(performance.now() - due);
          else non2xx += 1;
          resolve();
        });
      });
      req.on('error', () => {
        errors += 1;
        resolve();
      });
      req.end();
    });
  const start = performance.now();
  const total = Math.round(options.ratePerSecond * options.durationSeconds);
  const intervalMs = 1000 / options.ratePerSecond;
  for (let sent = 0; sent < total; ) {
    const dueNow = Math.min(total, Math.floor((performance.now() - start) / intervalMs) + 1);
    for (; sent < dueNow; sent += 1) answers.push(send(start + sent * intervalMs));
    await sleep(1);
  }
  await Promise.all(answers);
  agent.destroy();
  return { requests: total, requestsPerSecond: options.ratePerSecond, latencyMs: percentilesOf(latencies), non2xx, errors };
}
