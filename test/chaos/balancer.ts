import { Agent, createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An api instance behind the balancer: its public origin and its operations origin (/readyz). */
export interface Backend {
  name: string;
  origin: string;
  opsOrigin: string;
}

// Hop-by-hop headers (RFC 9110, 7.6.1): a proxy never forwards them.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);
const endToEnd = (headers: IncomingHttpHeaders) => Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));

/**
 * A local HTTP balancer as a Kubernetes Service sees the api: round robin over the backends whose /readyz answered
 * 200 at the last probe (every `probeMs`, a 1 s timeout, as a readiness probe with failureThreshold 1), keep-alive
 * connections to them. It never retries: a request that fails on its backend is answered 502 and counted, which is
 * the error a client would see during a roll.
 */
export class Balancer {
  /** Requests it could not complete: 502 (the backend failed it) or 503 (no backend ready). */
  errors: string[] = [];
  private backends: Array<Backend & { ready: boolean }> = [];
  private next = 0;
  private server?: Server;
  private probing?: NodeJS.Timeout;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });

  constructor(private readonly probeMs = 500) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const ready = this.backends.filter((b) => b.ready);
      const backend = ready[this.next++ % Math.max(ready.length, 1)];
      if (!backend) {
        this.errors.push(`${req.method} ${req.url}: no backend ready`);
        return void res.writeHead(503, { 'content-type': 'text/plain' }).end('no backend ready');
      }
      const target = new URL(backend.origin);
      const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: endToEnd(req.headers), agent: this.agent }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      });
      upstream.on('error', (err: NodeJS.ErrnoException) => {
        this.errors.push(`${req.method} ${req.url} on ${backend.name}: ${err.code ?? err.message}`);
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway');
        else res.destroy();
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.probing = setInterval(() => void this.probe(), this.probeMs);
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Adds a backend once its /readyz answers 200 (as an endpoint joins a Service when its pod is ready). */
  async add(backend: Backend): Promise<void> {
    const entry = { ...backend, ready: await this.isReady(backend) };
    this.backends.push(entry);
  }

  /** Removes a backend (its pod gone). */
  remove(origin: string): void {
    this.backends = this.backends.filter((b) => b.origin !== origin);
  }

  readyNames(): string[] {
    return this.backends.filter((b) => b.ready).map((b) => b.name);
  }

  async close(): Promise<void> {
    clearInterval(this.probing);
    this.agent.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async probe(): Promise<void> {
    await Promise.all(this.backends.map(async (b) => void (b.ready = await this.isReady(b))));
  }

  private isReady(backend: Backend): Promise<boolean> {
    return fetch(`${backend.opsOrigin}/readyz`, { signal: AbortSignal.timeout(1_000) }).then(
      async (r) => {
        await r.arrayBuffer();
        return r.status === 200;
      },
      () => false,
    );
  }
}
