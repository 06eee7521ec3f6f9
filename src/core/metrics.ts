import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

// The process's Prometheus series, served at /metrics by the api and by the worker on its own port
// (process/ops). One registry per process; docs/metrics.md lists every series and what to alert on.

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from receiving an API request to its answer, by method, route template and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

/**
 * The duration histogram's counts, copied at each scrape: a request then updates one labelled series instead of two
 * (each update builds the labels' key again, a few µs on the read path; docs/performance.md).
 */
export const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'API requests answered, by method, route template and status.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const { metricName, labels, value } of (await httpRequestDuration.get()).values) {
      if (metricName === 'http_request_duration_seconds_count') this.inc(labels, value);
    }
  },
});

export const apiRefusals = new Counter({
  name: 'api_refusals_total',
  help: 'Requests refused by authentication (401 by code), the address throttle or a key rate limit (429).',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export const idempotencyReplays = new Counter({
  name: 'idempotency_replays_total',
  help: 'Writes answered from a stored Idempotency-Key response instead of running again.',
  registers: [registry],
});

export const workflowStarts = new Counter({
  name: 'workflow_starts_total',
  help: 'Workflow starts by workflow type: started (or found still open), closed_already (its run had already finished).',
  labelNames: ['workflow_type', 'outcome'] as const,
  registers: [registry],
});

export const webhookAttempts = new Counter({
  name: 'webhook_attempts_total',
  help: 'Webhook delivery attempts by outcome: delivered (2xx), rejected (another status) or failed (no answer).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const webhookDeliveryLatency = new Histogram({
  name: 'webhook_delivery_latency_seconds',
  help: 'From the commit of an event to the end of the attempt that delivered it to one endpoint, retries included.',
  buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200, 21600, 86400],
  registers: [registry],
});

/** A delivery succeeded: its latency from the commit that recorded it (same transaction as its event). */
export function noteDelivered(committedAt: Date, attemptedAt: Date, durationMs: number): void {
  webhookDeliveryLatency.observe(Math.max(0, attemptedAt.getTime() + durationMs - committedAt.getTime()) / 1000);
}

export const platformRequests = new Counter({
  name: 'platform_requests_total',
  help: 'HTTP requests to the chat platform by route template, method and outcome (ok, rate_limited, client_error, server_error, no_answer).',
  labelNames: ['route', 'method', 'outcome'] as const,
  registers: [registry],
});

export const platformRateLimits = new Counter({
  name: 'platform_rate_limits_total',
  help: "429 answers of the chat platform by route template, method and the platform's scope (user, global, shared).",
  labelNames: ['route', 'method', 'scope'] as const,
  registers: [registry],
});

export const platformInvalidRequests = new Counter({
  name: 'platform_invalid_requests_total',
  help: "The platform's answers that count toward Discord's invalid-request limit (10,000 per 10 minutes per address earn a ban): 401, 403 and 429 other than the shared scope, by status.",
  labelNames: ['status'] as const,
  registers: [registry],
});

export const platformBlocks = new Counter({
  name: 'platform_blocks_total',
  help: 'Times every platform request of the process was stopped after a ban-like 429, by reason (global, cloudflare, long-retry-after).',
  labelNames: ['reason'] as const,
  registers: [registry],
});

let blockedSeconds: () => number = () => 0;
export const platformBlocked = new Gauge({
  name: 'platform_blocked_seconds',
  help: 'Seconds until platform requests may go again after a ban-like 429 (0 when they go).',
  registers: [registry],
  collect() {
    this.set(blockedSeconds());
  },
});

/** Where `platform_blocked_seconds` reads from: the process's latch. */
export function measurePlatformBlock(source: () => number): void {
  blockedSeconds = source;
}

export const latchMetrics = {
  invalidRequest: (status: number) => platformInvalidRequests.inc({ status: String(status) }),
  blocked: (reason: string) => platformBlocks.inc({ reason }),
};

/** How a request to the platform ended: answered 2xx, 429, another 4xx, 5xx, or no answer at all (network, timeout). */
export type PlatformRequestOutcome = 'ok' | 'rate_limited' | 'client_error' | 'server_error' | 'no_answer';

/** What a platform adapter reports of its requests; the wiring hands it the process's counters. */
export interface PlatformMetrics {
  request(route: string, method: string, outcome: PlatformRequestOutcome): void;
  rateLimited(route: string, method: string, scope: string): void;
}

export const platformMetrics: PlatformMetrics = {
  request: (route, method, outcome) => platformRequests.inc({ route, method, outcome }),
  rateLimited: (route, method, scope) => platformRateLimits.inc({ route, method, scope }),
};

/** What a process measures on each scrape: its pools and, where it has a database, the outbox. */
export interface ScrapeSources {
  pool?: () => { total: number; idle: number; waiting: number; max: number };
  /** Creation time of the oldest event whose fan-out has not started; undefined when there is none. */
  oldestUnrelayedEvent?: () => Promise<Date | undefined>;
  /** Whether each shared dependency (PostgreSQL, Temporal) answers now; process/ops/opsEndpoints.ts sets it. */
  dependencies?: () => Promise<Record<string, boolean>>;
}

const sources: ScrapeSources = {};

/** Sets where the scrape-time gauges read from (once per process: the entrypoint's pool and database). */
export function measureFrom(next: ScrapeSources): void {
  Object.assign(sources, next);
}

new Gauge({
  name: 'db_pool_connections',
  help: 'PostgreSQL pool connections: total open, idle, callers waiting for one, and the configured maximum.',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    const pool = sources.pool?.();
    if (!pool) return;
    for (const state of ['total', 'idle', 'waiting', 'max'] as const) this.set({ state }, pool[state]);
  },
});

new Gauge({
  name: 'outbox_lag_seconds',
  help: 'Age of the oldest event whose fan-out has not started (0 when every event is on its way).',
  registers: [registry],
  async collect() {
    if (!sources.oldestUnrelayedEvent) return;
    // Unreadable (the database is down): the last value stays rather than a reassuring 0.
    const oldest = await sources.oldestUnrelayedEvent().catch(() => null);
    if (oldest === null) return;
    this.set(oldest ? Math.max(0, (Date.now() - oldest.getTime()) / 1000) : 0);
  },
});

new Gauge({
  name: 'dependency_up',
  help: 'Whether a dependency (database, temporal) answered a check on this scrape (1) or not within 2 s (0). Not part of readiness: alert on it.',
  labelNames: ['dependency'] as const,
  registers: [registry],
  async collect() {
    const up = await sources.dependencies?.();
    for (const [dependency, ok] of Object.entries(up ?? {})) this.set({ dependency }, ok ? 1 : 0);
  },
});

/** The text a scrape gets. */
export async function scrape(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
