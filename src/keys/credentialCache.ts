import { EventEmitter } from 'node:events';
import type { ApiKeyRecord } from '../../db/keys/apiKeys.js';
import type { GuildRecord } from '../../db/guild/guilds.js';
import { listenForCredentialChanges, type CredentialChangeListener } from '../../db/keys/credentialChanges.js';

export interface Credential {
  apiKey: ApiKeyRecord;
  guild: GuildRecord;
}

export interface CredentialCacheOptions {
  /** A direct connection (or session pooling): a transaction pooler delivers no notifications. */
  connectionString: string;
  /** The listening connection's name in pg_stat_activity. */
  applicationName?: string;
  /** Credentials held at most; the oldest goes first. */
  maxEntries: number;
  /** How often the sequence is compared with the last announcement heard, in case one was missed on a live connection. */
  versionCheckMs: number;
}

/**
 * Usable keys with their guild, by key digest, so an authenticated request needs no lookup. Not a TTL cache: it
 * holds entries only while its LISTEN connection is up, and empties itself on every announced change of any key or
 * guild (db/keys/credentialChanges.ts), on a lost connection, on reconnecting (announcements made meanwhile are lost)
 * and when the version check finds a number it did not hear. A lookup that started before a change is not stored
 * (the generation moved), so a revoked key is refused by every instance from the moment its announcement arrives.
 *
 * Events (for tests and logs): `listening`, `lost` (once per loss of a listening connection), `cleared` (reason).
 */
export class CredentialCache extends EventEmitter {
  private readonly entries = new Map<string, Credential>();
  private listener: CredentialChangeListener | undefined;
  private versionTimer: NodeJS.Timeout | undefined;
  private heardVersion: string | undefined;
  private live = false;
  /** Moves on every clear: a lookup begun under an older generation is not stored. */
  generation = 0;

  constructor(private readonly options: CredentialCacheOptions) {
    super();
  }

  start(): void {
    const { connectionString, applicationName } = this.options;
    this.listener = listenForCredentialChanges(connectionString, {
      changed: (version) => {
        this.heardVersion = version;
        this.clear('changed');
      },
      listening: (version) => {
        this.heardVersion = version;
        this.clear('reconnected');
        this.live = true;
        this.emit('listening');
      },
      lost: (err) => {
        const was = this.live;
        this.live = false;
        this.clear('lost');
        // Once per loss, not once per failed reconnection.
        if (was) this.emit('lost', err);
      },
    }, { applicationName });
    this.versionTimer = setInterval(() => void this.checkVersion(), this.options.versionCheckMs).unref();
  }

  /** Whether entries are served (the listener is up). */
  get listening(): boolean {
    return this.live;
  }

  get size(): number {
    return this.entries.size;
  }

  get(digest: string): Credential | undefined {
    return this.live ? this.entries.get(digest) : undefined;
  }

  /** Stores a credential looked up under `generation`, unless something changed (or the listener dropped) since. */
  remember(digest: string, credential: Credential, generation: number): void {
    if (!this.live || generation !== this.generation) return;
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(digest, credential);
  }

  /** Compares the sequence with the last number heard: a difference means an announcement may have been missed. */
  async checkVersion(): Promise<void> {
    if (!this.live || !this.listener) return;
    const heard = this.heardVersion;
    try {
      const version = await this.listener.readVersion();
      // A number heard while the read was under way is newer than what the read saw, and already cleared.
      if (this.heardVersion === heard && version !== heard) {
        this.heardVersion = version;
        this.clear('version');
      }
    } catch {
      // The connection's own error event reports the loss.
    }
  }

  /** The listening connection's backend pid (tests end it to cut the connection). */
  backendPid(): number | undefined {
    return this.listener?.backendPid();
  }

  async close(): Promise<void> {
    clearInterval(this.versionTimer);
    this.live = false;
    this.clear('closed');
    await this.listener?.close();
  }

  private clear(reason: string): void {
    this.generation += 1;
    this.entries.clear();
    this.emit('cleared', reason);
  }
}
