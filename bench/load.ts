import autocannon, { type Instance, type Request, type Result } from 'autocannon';

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  /** Of the 2xx answers, from each request's own timing (to the hundredth of a millisecond). */
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
}

export interface LoadOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  headers?: Record<string, string>;
  /** Shapes each request (path, body, headers) just before it is sent. */
  setupRequest(request: Request): Request;
  method?: 'GET' | 'POST';
}

/** Drives a closed-loop load (each connection sends its next request when the last one answered). */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const run = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    headers: options.headers,
    requests: [{ method: options.method ?? 'GET', setupRequest: options.setupRequest }],
  }) as Promise<Result> & Instance;
  // autocannon's own histogram keeps whole milliseconds: at a p99 of 8 ms one step is 12 %.
  const latencies: number[] = [];
  run.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
  const result = await run;
  return {
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.total / options.durationSeconds),
    latencyMs: percentilesOf(latencies),
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** p50, p90, p99 and max of latencies in milliseconds, to the hundredth. */
export function percentilesOf(latencies: number[]): LoadResult['latencyMs'] {
  const sorted = Float64Array.from(latencies).sort();
  const at = (q: number) => (sorted.length === 0 ? 0 : Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! * 100) / 100);
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) };
}
