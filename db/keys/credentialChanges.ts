import pg from 'pg';

/** The channel and sequence of the credential triggers (migration 2026-11-25-010). */
const CHANNEL = 'credential_changes';

export interface CredentialChangeHandlers {
  /** A change committed (the sequence number it took). */
  changed(version: string): void;
  /** The connection is up and listening; `version` is the sequence's value read after LISTEN. */
  listening(version: string): void;
  /** The connection was lost (or could not be made): announcements may be missed until `listening` again. */
  lost(err: unknown): void;
}

export interface CredentialChangeListener {
  /** The sequence's current value, read on the listening connection (rejects when it is down). */
  readVersion(): Promise<string>;
  /** The backend's process id while connected (tests end it to cut the connection). */
  backendPid(): number | undefined;
  close(): Promise<void>;
}

/**
 * One dedicated connection (not from the pool: it stays checked out for good) that LISTENs to the credential
 * changes. It reconnects after a loss, `retryMs` apart; LISTEN comes before the version read, so a change that
 * commits in between is either announced or already counted in the version.
 */
export function listenForCredentialChanges(
  connectionString: string,
  handlers: CredentialChangeHandlers,
  options: { retryMs?: number; applicationName?: string } = {},
): CredentialChangeListener {
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
    next.on('end', () => lose(next, new Error('the credential listener connection ended')));
    next.on('notification', (message) => {
      if (message.channel === CHANNEL && message.payload) handlers.changed(message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      const version = await currentVersion(next);
      if (client === next && !closed) handlers.listening(version);
    } catch (err) {
      lose(next, err);
    }
  };
  void connect();

  return {
    readVersion: () => (client ? currentVersion(client) : Promise.reject(new Error('the credential listener is not connected'))),
    backendPid: () => (client as (pg.Client & { processID?: number }) | undefined)?.processID,
    close: async () => {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}

async function currentVersion(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ version: string }>('select last_value::text as version from credential_version');
  return rows[0]!.version;
}
