import autocannon, { type Request } from 'autocannon';

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
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
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    headers: options.headers,
    requests: [{ method: options.method ?? 'GET', setupRequest: options.setupRequest }],
  });
  return {
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.total / options.durationSeconds),
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
