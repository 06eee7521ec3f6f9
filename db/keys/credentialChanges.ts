import type pg from 'pg';
import { listenForNotifications } from '../shared/notificationListener.js';

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
 * The credential changes heard on a dedicated connection (db/shared/notificationListener.ts); LISTEN comes before
 * the version read, so a change that commits in between is either announced or already counted in the version.
 */
export function listenForCredentialChanges(
  connectionString: string,
  handlers: CredentialChangeHandlers,
  options: { retryMs?: number; applicationName?: string } = {},
): CredentialChangeListener {
  const listener = listenForNotifications(
    connectionString,
    CHANNEL,
    'credential listener',
    { notified: (v) => handlers.changed(v), catchUp: currentVersion, listening: (v) => handlers.listening(v), lost: (err) => handlers.lost(err) },
    options,
  );
  return {
    readVersion: () => {
      const client = listener.connection();
      return client ? currentVersion(client) : Promise.reject(new Error('the credential listener is not connected'));
    },
    backendPid: () => (listener.connection() as (pg.Client & { processID?: number }) | undefined)?.processID,
    close: () => listener.close(),
  };
}

async function currentVersion(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ version: string }>('select last_value::text as version from credential_version');
  return rows[0]!.version;
}
