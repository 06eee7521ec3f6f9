import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OpsEndpoints } from './opsEndpoints.js';

export interface GracefulServer {
  server: Server;
  /** `http://host:port` as bound (port 0 picks a free one). */
  origin: string;
  /**
   * Stops accepting connections, lets in-flight requests finish for up to `drainMs` (answering each with
   * `Connection: close`, or a keep-alive client would hold its socket open for seconds), then cuts the rest.
   */
  close(): Promise<void>;
}

export interface GracefulServerOptions {
  host: string;
  port: number;
  drainMs: number;
  ops: OpsEndpoints;
  /** Everything that is not an ops endpoint; the worker's answers 404. */
  handler?: RequestListener;
}

const notFound = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(404, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ error: 'NOT_FOUND' }));
};

export async function startGracefulServer(options: GracefulServerOptions): Promise<GracefulServer> {
  const { ops, handler = notFound } = options;
  let draining = false;
  // Responses not sent yet: once draining, each goes out with `Connection: close`.
  const inFlight = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    if (draining) res.setHeader('Connection', 'close');
    else {
      inFlight.add(res);
      res.on('close', () => inFlight.delete(res));
    }
    if (!ops.handle(req, res)) handler(req, res);
  });
  // Bodies are small and requests short; a stalled client must not hold a socket for long.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    origin: `http://${options.host}:${port}`,
    close() {
      draining = true;
      ops.startDraining();
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const cut = setTimeout(() => server.closeAllConnections(), options.drainMs);
      return closed.finally(() => clearTimeout(cut));
    },
  };
}
