import pg from 'pg';

export interface NotificationHandlers<T> {
  /** A notification on the channel, with its payload. */
  notified(payload: string): void;
  /**
   * Runs after each LISTEN, on the listening connection: reads what a notification sent while it was not listening
   * would have said. Its answer goes to `listening`, unless the connection was lost or closed meanwhile.
   */
  catchUp(client: pg.Client): Promise<T>;
  listening(caughtUp: T): void;
  /** The connection was lost (or could not be made): notifications may be missed until `listening` again. */
  lost(err: unknown): void;
}

export interface NotificationListener {
  /** The listening connection while it is up. */
  connection(): pg.Client | undefined;
  close(): Promise<void>;
}

/**
 * One dedicated connection that LISTENs to `channel` (not from the pool, where it would stay checked out for good;
 * nor through a transaction pooler, where no notification would arrive). It reconnects after a loss, `retryMs`
 * apart; LISTEN comes before the catch-up read, so what commits in between is either notified or already read.
 * `name` says whose connection ended, in the error `lost` gets.
 */
export function listenForNotifications<T>(
  connectionString: string,
  channel: string,
  name: string,
  handlers: NotificationHandlers<T>,
  options: { retryMs?: number; applicationName?: string } = {},
): NotificationListener {
  const { retryMs = 1000, applicationName } = options;
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const lose = (from: pg.Client, err: unknown) => {
    if (client !== from) return;
    client = undefined;
    from.removeAllListeners('notification');
    from.end().catch(() => {});
    handlers.lost(err);
    if (!closed) retry = setTimeout(() => void connect(), retryMs).unref();
  };

  const connect = async () => {
    const next = new pg.Client({ connectionString, keepAlive: true, application_name: applicationName });
    client = next;
    next.on('error', (err) => lose(next, err));
    next.on('end', () => lose(next, new Error(`the ${name} connection ended`)));
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload) handlers.notified(message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${channel}`);
      const caughtUp = await handlers.catchUp(next);
      if (client === next && !closed) handlers.listening(caughtUp);
    } catch (err) {
      lose(next, err);
    }
  };
  void connect();

  return {
    connection: () => client,
    close: async () => {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
