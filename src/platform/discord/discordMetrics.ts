import type { REST } from '@discordjs/rest';
import type { PlatformMetrics, PlatformRequestOutcome } from '../../core/metrics.js';
import { BLOCKED_HEADER, EGRESS_HEADER } from './banLatch.js';

/** A request path as a metric label: ids become `:id` (a series per guild, user or message would never end). */
export const routeTemplate = (path: string) => path.split('?')[0]!.replace(/\/\d{15,25}(?=\/|$)/g, '/:id');

function outcomeOf(status: number): PlatformRequestOutcome {
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  return status >= 400 ? 'client_error' : 'ok';
}

/**
 * Counts every request the client gets an answer to (its `response` event fires once per HTTP answer, so a 429
 * followed by the retry that succeeds counts twice) and every 429 with Discord's `X-RateLimit-Scope` (`egress` when the
 * fleet's egress asked for the wait). An answer given while the fleet's stop is set reached no one: not counted.
 */
export function countRequests(rest: REST, metrics: PlatformMetrics): void {
  rest.on('response', (request, response) => {
    if (response.headers.get(BLOCKED_HEADER) !== null) return;
    const route = routeTemplate(String(request.path));
    const method = request.method.toUpperCase();
    metrics.request(route, method, outcomeOf(response.status));
    const scope = response.headers.get('x-ratelimit-scope') ?? (response.headers.get(EGRESS_HEADER) !== null ? 'egress' : 'user');
    if (response.status === 429) metrics.rateLimited(route, method, scope);
  });
}
