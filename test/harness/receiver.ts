import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A customer's webhook receiver on loopback: answers each request with the next status of `script`
 * (the last one repeats) and records what it got.
 */
export async function startReceiver(script: Array<number | { status: number; headers?: Record<string, string> }>) {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const step = script[Math.min(received.length - 1, script.length - 1)]!;
      const { status, headers } = typeof step === 'number' ? { status: step, headers: {} } : step;
      res.writeHead(status, headers).end(`answer ${received.length}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
