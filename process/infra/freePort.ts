import { createServer } from 'node:net';
import { randomInt } from 'node:crypto';

/** A loopback port free at the time of the call. */
export function freePort(): Promise<number> {
  return listenOn(0) as Promise<number>;
}

/** A loopback port in [low, high] free at the time of the call: tried at random until one binds. */
export async function freePortBetween(low: number, high: number): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = await listenOn(randomInt(low, high + 1));
    if (port !== undefined) return port;
  }
  throw new Error(`No free loopback port between ${low} and ${high} after 100 tries.`);
}

/** The port bound (0: one the system picks), or undefined when it is taken. */
function listenOn(port: number): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', (err: NodeJS.ErrnoException) => (port !== 0 && err.code === 'EADDRINUSE' ? resolve(undefined) : reject(err)));
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as { port: number };
      server.close(() => resolve(bound));
    });
  });
}
