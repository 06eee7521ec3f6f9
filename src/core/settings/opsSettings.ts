import { z } from 'zod';
import { booleanFlag } from './envFlag.js';

/** What a stop needs after the api's drain (closing Temporal and the pool, flushing spans): kept out of the deadline. */
export const STOP_RESERVE_MS = 5_000;

/** The environment variables of the api's ports and connections, of incoming trace context, and of every process's stop. */
export const opsEnv = {
  /**
   * After SIGTERM the api answers `/readyz` 503 at once but keeps accepting and serving for this long, so the load
   * balancer sees it leave before its listener closes (Kubernetes removes an endpoint a few seconds after the pod's
   * termination starts; connections routed meanwhile would be refused).
   */
  SHUTDOWN_PROPAGATION_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  /** The whole stop of a process after SIGTERM; past it the process exits 1. Keep the orchestrator's grace period above. */
  SHUTDOWN_DEADLINE_MS: z.coerce.number().int().min(1_000).max(600_000).default(25_000),
  /**
   * How long the api keeps an idle keep-alive connection open. Above the load balancer's idle timeout (60 s on the
   * usual ones), so the balancer, not Node, closes idle connections: a request it sends on a socket Node closed
   * would come back as a 502.
   */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(65_000),
  /** How long a request's headers (and its body: Node's request timeout is the same) may take to arrive; above the keep-alive timeout. */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(66_000),
  /** The api's operations port (on HOST): /livez, /readyz, /metrics, kept off the public port with the API and console. */
  API_OPS_PORT: z.coerce.number().int().min(0).max(65535).default(3003),
  /**
   * Compatibility with deployments that probe and scrape the api on PORT: those endpoints are served there too (and
   * reach the internet wherever PORT does). Off by default.
   */
  API_OPS_ON_PUBLIC_PORT: booleanFlag.default(false),
  /**
   * Take the trace context (`traceparent`, `tracestate`) and `baggage` of requests arriving on the public port, for a
   * gateway of your own that starts traces in front of the api. Off: every request starts a trace of its own.
   */
  TRACE_TRUST_INCOMING: booleanFlag.default(false),
};

type OpsEnv = z.infer<z.ZodObject<typeof opsEnv>> & { PORT: number; SHUTDOWN_DRAIN_MS: number; WORKER_SHUTDOWN_FORCE_MS: number };

export type OpsSettings = Readonly<{
  propagationMs: number;
  shutdownDeadlineMs: number;
  keepAliveTimeoutMs: number;
  headersTimeoutMs: number;
  apiOpsPort: number;
  apiOpsOnPublicPort: boolean;
  traceTrustIncoming: boolean;
}>;

export function checkOpsEnv(e: OpsEnv, ctx: z.RefinementCtx): void {
  const apiStop = e.SHUTDOWN_PROPAGATION_MS + e.SHUTDOWN_DRAIN_MS + STOP_RESERVE_MS;
  if (apiStop > e.SHUTDOWN_DEADLINE_MS) {
    ctx.addIssue({
      code: 'custom',
      path: ['SHUTDOWN_DEADLINE_MS'],
      message: `must leave room for the api's stop: SHUTDOWN_PROPAGATION_MS + SHUTDOWN_DRAIN_MS + ${STOP_RESERVE_MS} ms is ${apiStop} ms`,
    });
  }
  if (e.WORKER_SHUTDOWN_FORCE_MS + STOP_RESERVE_MS > e.SHUTDOWN_DEADLINE_MS) {
    ctx.addIssue({ code: 'custom', path: ['SHUTDOWN_DEADLINE_MS'], message: `must be at least WORKER_SHUTDOWN_FORCE_MS + ${STOP_RESERVE_MS} ms` });
  }
  if (e.API_OPS_PORT === e.PORT && e.PORT !== 0) {
    ctx.addIssue({ code: 'custom', path: ['API_OPS_PORT'], message: 'must differ from PORT (set API_OPS_ON_PUBLIC_PORT=true to serve the probes on PORT too)' });
  }
  if (e.HTTP_HEADERS_TIMEOUT_MS <= e.HTTP_KEEP_ALIVE_TIMEOUT_MS) {
    ctx.addIssue({ code: 'custom', path: ['HTTP_HEADERS_TIMEOUT_MS'], message: 'must be above HTTP_KEEP_ALIVE_TIMEOUT_MS' });
  }
}

export function opsSettingsOf(e: OpsEnv): OpsSettings {
  return {
    propagationMs: e.SHUTDOWN_PROPAGATION_MS,
    shutdownDeadlineMs: e.SHUTDOWN_DEADLINE_MS,
    keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
    apiOpsPort: e.API_OPS_PORT,
    apiOpsOnPublicPort: e.API_OPS_ON_PUBLIC_PORT,
    traceTrustIncoming: e.TRACE_TRUST_INCOMING,
  };
}
