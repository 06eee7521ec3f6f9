import type { REST } from '@discordjs/rest';
import type { PlatformMetrics, PlatformRequestOutcome } from '../../core/metrics.js';

/** A request path as a metric label: ids become `:id` (a series per guild, user or message would never end). */
export const routeTemplate = (path: string) => path.split('?')[0]!.replace(/\/\d{15,25}(?=\/|$)/g, '/:id');

function outcomeOf(status: number): PlatformRequestOutcome {
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  return status >= 400 ? 'client_error' : 'ok';
}

/**
 * Counts every request the client gets an answer to (its `response` event fires once per HTTP answer, so a 429
 * followed by the retry that succeeds counts twice) and every 429 with Discord's `X-RateLimit-Scope`.
 */
export function countRequests(rest: REST, metrics: PlatformMetrics): void {
  rest.on('response', (request, response) => {
    const route = routeTemplate(String(request.path));
    const method = request.method.toUpperCase();
    metrics.request(route, method, outcomeOf(response.status));
    if (response.status === 429) metrics.rateLimited(route, method, response.headers.get('x-ratelimit-scope') ?? 'user');
  });
}
