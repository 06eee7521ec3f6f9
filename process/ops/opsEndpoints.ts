import type { IncomingMessage, ServerResponse } from 'node:http';
import { readiness, type Check } from './probes.js';

/**
 * The operator's endpoints, outside the API root and without authentication: `/livez` (the process answers),
 * `/readyz` (its dependencies answer: 200 or 503 with each check) and, when given, `/metrics`. While the
 * process drains, `/readyz` answers 503 so a load balancer stops sending it work.
 */
export interface OpsEndpoints {
  /** Answers the request when it is one of these endpoints; false otherwise. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  startDraining(): void;
}

export interface OpsEndpointOptions {
  checks: Record<string, Check>;
  metrics?: () => Promise<{ contentType: string; body: string }>;
  /** More for `/readyz` to show beside the checks (the bot: its shards and queue). */
  details?: () => Promise<Record<string, unknown>>;
}

export function opsEndpoints(options: OpsEndpointOptions): OpsEndpoints {
  let draining = false;
  const send = (res: ServerResponse, status: number, contentType: string, body: string) => {
    res.writeHead(status, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
    res.end(body);
  };
  const json = (res: ServerResponse, status: number, body: unknown) => send(res, status, 'application/json', JSON.stringify(body));
  const routes: Record<string, (res: ServerResponse) => Promise<void>> = {
    '/livez': async (res) => json(res, 200, { status: 'ok' }),
    '/readyz': async (res) => {
      const [{ ready, checks }, details] = await Promise.all([readiness(options.checks), options.details?.() ?? {}]);
      const status = ready && !draining ? 'ready' : draining ? 'draining' : 'not_ready';
      json(res, status === 'ready' ? 200 : 503, { status, checks, ...details });
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
