import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { OpsEndpoints } from './opsEndpoints.js';

export interface GracefulServer {
  server: Server;
  /** `http://host:port` as bound (port 0 picks a free one). */
  origin: string;
  /**
   * Turns not-ready and keeps serving for `propagationMs` (every answer from then on says `Connection: close`), then
   * stops accepting connections, lets in-flight requests finish for up to `drainMs`, then cuts the rest.
   */
  close(): Promise<void>;
}

export interface GracefulServerOptions {
  host: string;
  port: number;
  drainMs: number;
  /** How long the server still accepts and serves after it turned not-ready (the load balancer's catch-up); default 0. */
  propagationMs?: number;
  /** Idle keep-alive connections close after this long (Node's default: 5 s). */
  keepAliveTimeoutMs?: number;
  /** A request's headers, and the whole request, must arrive within this long. */
  headersTimeoutMs?: number;
  /** The operator's endpoints this server answers (undefined: none here; they are served on a port of their own). */
  ops?: OpsEndpoints;
  /** Everything that is not an ops endpoint; the worker's answers 404. */
  handler?: RequestListener;
  /** Waits out the propagation delay; tests pass one they end themselves. */
  wait?: (ms: number) => Promise<void>;
  /**
   * Drops the W3C trace context and baggage headers of every request before anything reads them (the tracing's http
   * instrumentation included): on the public port, a caller must not choose the trace or the baggage it joins.
   */
  dropTraceContext?: boolean;
}

const TRACE_CONTEXT_HEADERS = ['traceparent', 'tracestate', 'baggage'];

// The http instrumentation wraps Server.prototype.emit; a method of the server's own runs before it.
function dropTraceContextOf(server: Server): void {
  const emit = server.emit.bind(server);
  server.emit = ((event: string, ...args: unknown[]) => {
    if (event === 'request') for (const name of TRACE_CONTEXT_HEADERS) delete (args[0] as IncomingMessage).headers[name];
    return emit(event, ...args);
  }) as Server['emit'];
}

const notFound = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(404, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ error: 'NOT_FOUND' }));
};

// Bodies are small and requests short; a stalled client must not hold a socket for long (unless the api is told
// otherwise: behind a load balancer, its timeouts follow the balancer's).
const REQUEST_TIMEOUT_MS = 30_000;
const HEADERS_TIMEOUT_MS = 10_000;

export async function startGracefulServer(options: GracefulServerOptions): Promise<GracefulServer> {
  const { ops, handler = notFound, propagationMs = 0, wait = (ms) => sleep(ms) } = options;
  let draining = false;
  // Responses not sent yet: once draining, each goes out with `Connection: close`, or a keep-alive client (the load
  // balancer) would hold its socket open and send more on it.
  const inFlight = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    if (draining) res.setHeader('Connection', 'close');
    else {
      inFlight.add(res);
      res.on('close', () => inFlight.delete(res));
    }
    if (!ops?.handle(req, res)) handler(req, res);
  });
  if (options.dropTraceContext) dropTraceContextOf(server);
  const headersTimeout = options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  // Node checks both on the same timer; a headers bound above the request bound would never apply.
  server.requestTimeout = Math.max(REQUEST_TIMEOUT_MS, headersTimeout);
  server.headersTimeout = headersTimeout;
  if (options.keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = options.keepAliveTimeoutMs;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    origin: `http://${options.host}:${port}`,
    async close() {
      draining = true;
      ops?.startDraining();
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      if (propagationMs > 0) await wait(propagationMs);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const cut = setTimeout(() => server.closeAllConnections(), options.drainMs);
      return closed.finally(() => clearTimeout(cut));
    },
  };
}
