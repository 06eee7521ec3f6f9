import type { IncomingMessage, ServerResponse } from 'node:http';
import { measureFrom } from '../../src/core/metrics.js';
import { runChecks, type Check } from './probes.js';

// /readyz waits this long for the dependencies' answers, well under a probe's usual 1 s timeout: a database that
// hangs (a failover, a black-holed route) must not time the probe out, which would count as not ready.
const READY_WAIT_MS = 500;
// What the dependency_up gauge allows each dependency on a scrape (scrapes have seconds to spare).
const SCRAPE_WAIT_MS = 2_000;

/**
 * The operator's endpoints, outside the API root and without authentication: `/livez` (the process answers),
 * `/readyz` and, when given, `/metrics`. Ready means "this process can serve": not draining, and its own `checks`
 * pass (the worker's poller, the bot's shards). Shared dependencies (PostgreSQL, Temporal) are only reported, in
 * `/readyz`'s `dependencies` and as the `dependency_up` gauge: a short outage of one must not take every replica
 * out of the load balancer at once, when the api can still answer its own 503 with Retry-After, or what needs
 * neither. While the process drains, `/readyz` answers 503 so the load balancer stops sending it work.
 */
export interface OpsEndpoints {
  /** Answers the request when it is one of these endpoints; false otherwise. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  startDraining(): void;
}

export interface OpsEndpointOptions {
  /** What this process needs to serve: all must pass for `/readyz` to answer 200. */
  checks?: Record<string, Check>;
  /** Shared dependencies: reported, never a reason to be out of rotation. */
  dependencies?: Record<string, Check>;
  metrics?: () => Promise<{ contentType: string; body: string }>;
  /** More for `/readyz` to show beside the checks (the bot: its shards and queue). */
  details?: () => Promise<Record<string, unknown>>;
}

export function opsEndpoints(options: OpsEndpointOptions): OpsEndpoints {
  let draining = false;
  const { checks = {}, dependencies = {} } = options;
  if (Object.keys(dependencies).length > 0) {
    measureFrom({ dependencies: async () => Object.fromEntries(Object.entries(await runChecks(dependencies, SCRAPE_WAIT_MS)).map(([name, state]) => [name, state === 'ok'])) });
  }
  const send = (res: ServerResponse, status: number, contentType: string, body: string) => {
    res.writeHead(status, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
    res.end(body);
  };
  const json = (res: ServerResponse, status: number, body: unknown) => send(res, status, 'application/json', JSON.stringify(body));
  const routes: Record<string, (res: ServerResponse) => Promise<void>> = {
    '/livez': async (res) => json(res, 200, { status: 'ok' }),
    '/readyz': async (res) => {
      const [own, shared, details] = await Promise.all([runChecks(checks, READY_WAIT_MS), runChecks(dependencies, READY_WAIT_MS), options.details?.() ?? {}]);
      const status = draining ? 'draining' : Object.values(own).every((state) => state === 'ok') ? 'ready' : 'not_ready';
      const body = {
        status,
        ...(Object.keys(own).length > 0 ? { checks: own } : {}),
        ...(Object.keys(shared).length > 0 ? { dependencies: shared } : {}),
        ...details,
      };
      json(res, status === 'ready' ? 200 : 503, body);
    },
  };
  const { metrics } = options;
  if (metrics) {
    routes['/metrics'] = async (res) => {
      const { contentType, body } = await metrics();
      send(res, 200, contentType, body);
    };
  }
  return {
    handle(req, res) {
      const path = (req.url ?? '').split('?')[0]!;
      const route = routes[path];
      if (!route || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
      route(res).catch(() => json(res, 500, { status: 'error' }));
      return true;
    },
    startDraining() {
      draining = true;
    },
  };
}
