import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  /** `postgres://…` of the target with the proxy's host and port instead. */
  url: string;
  /**
   * Closes open connections at once, both ways, without a word to either side (an abrupt server stop): all of
   * them, or only the one whose server side sees the proxy on `clientPort` (`client_port` in pg_stat_activity).
   */
  cut(clientPort?: number): void;
  /** While down, every new connection is closed as soon as it is accepted (the server is gone). */
  setDown(down: boolean): void;
  /** Connections closed at once while down, so far. */
  readonly refused: number;
  close(): Promise<void>;
}

/** A loopback TCP proxy in front of a PostgreSQL URL, to take the database away from one client and give it back. */
export async function startTcpProxy(targetUrl: string): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  // Each connection's pair of sockets: the client's and the one to the server.
  const open = new Set<[Socket, Socket]>();
  let down = false;
  let refused = 0;
  const server: Server = createServer((client) => {
    if (down) {
      refused += 1;
      client.destroy();
      return;
    }
    const upstream = connect(Number(target.port), target.hostname);
    const pair: [Socket, Socket] = [client, upstream];
    open.add(pair);
    for (const socket of pair) socket.on('error', () => {});
    client.on('close', () => {
      upstream.destroy();
      open.delete(pair);
    });
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  const cut = (clientPort?: number) => {
    for (const [client, upstream] of open) {
      if (clientPort === undefined || upstream.localPort === clientPort) client.destroy();
    }
  };
  return {
    url: url.toString(),
    cut,
    setDown(value) {
      down = value;
      if (down) cut();
    },
    get refused() {
      return refused;
    },
    close: () => {
      cut();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
