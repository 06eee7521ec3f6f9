import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Logger } from '../logger.js';
import { temporalConnectionOptions, type TemporalConnectionOptions } from './connection.js';
import type { TemporalSettings } from '../settings/temporalSettings.js';

/** What changed at a re-read: the API key (sent with the next call) or the TLS files (new connections needed). */
export interface CredentialChange {
  apiKey: boolean;
  tls: boolean;
}

/**
 * The Temporal credentials of a process as they are now: the API key (from TEMPORAL_API_KEY_FILE, re-read) and the
 * TLS files. Every connection of the process is built from `options()`; its listeners follow a change.
 */
export interface CredentialSource {
  /** The connection options with the credentials last read. */
  options(): TemporalConnectionOptions;
  /** The API key last read (undefined without one). */
  apiKey(): string | undefined;
  /** Reads the files again and tells the listeners what changed; the interval calls it, tests call it directly. */
  check(): Promise<CredentialChange>;
  onChange(listener: (change: CredentialChange) => Promise<void> | void): void;
  close(): void;
}

const digest = (parts: Array<Buffer | string | undefined>) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part === undefined ? '-' : `${part.length}:`).update(part ?? '');
  return hash.digest('hex');
};

function readKey(settings: TemporalSettings): string | undefined {
  if (!settings.apiKeyFile) return settings.apiKey;
  const key = readFileSync(settings.apiKeyFile, 'utf8').replace(/(\r?\n)+$/, '');
  if (key === '') throw Object.assign(new Error(`${settings.apiKeyFile} is empty`), { code: 'EMPTY' });
  return key;
}

const tlsDigest = (options: TemporalConnectionOptions) =>
  typeof options.tls === 'object' ? digest([options.tls.clientCertPair?.crt, options.tls.clientCertPair?.key, options.tls.serverRootCACertificate]) : String(options.tls);

/**
 * Re-reads every `credentialsReloadMs` (0: never). A file that cannot be read or is empty (a secret being swapped,
 * a mount gone) keeps the credentials in use, logged once until it reads again: the process carries on with what
 * worked, rather than stop talking to Temporal. Logs name the files, never their content.
 */
export function watchTemporalCredentials(settings: TemporalSettings, logger: Logger): CredentialSource {
  let current: TemporalConnectionOptions = { ...temporalConnectionOptions(settings), apiKey: readKey(settings) };
  let tlsNow = tlsDigest(current);
  let failing = false;
  const listeners: Array<(change: CredentialChange) => Promise<void> | void> = [];
  const check = async (): Promise<CredentialChange> => {
    let next: TemporalConnectionOptions;
    try {
      next = { ...temporalConnectionOptions(settings), apiKey: readKey(settings) };
    } catch (err) {
      if (!failing) logger.warn({ reason: (err as NodeJS.ErrnoException).code ?? (err as Error).message }, 'Temporal credential files cannot be read; the credentials in use are kept');
      failing = true;
      return { apiKey: false, tls: false };
    }
    failing = false;
    const nextTls = tlsDigest(next);
    const change = { apiKey: next.apiKey !== current.apiKey, tls: nextTls !== tlsNow };
    current = next;
    tlsNow = nextTls;
    if (!change.apiKey && !change.tls) return change;
    logger.info({ apiKey: change.apiKey, tls: change.tls }, 'Temporal credentials changed; applying them without a restart');
    for (const listener of listeners) {
      await Promise.resolve(listener(change)).catch((err: unknown) => logger.error({ err }, 'applying new Temporal credentials failed; the previous ones stay in use'));
    }
    return change;
  };
  let running = Promise.resolve();
  const timer = settings.credentialsReloadMs > 0 ? setInterval(() => void (running = running.then(() => check().then(() => {}))), settings.credentialsReloadMs) : undefined;
  timer?.unref();
  return {
    options: () => current,
    apiKey: () => current.apiKey,
    check: () => {
      const result = running.then(check);
      running = result.then(() => {});
      return result;
    },
    onChange: (listener) => void listeners.push(listener),
    close: () => clearInterval(timer),
  };
}
