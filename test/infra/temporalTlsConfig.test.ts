import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { temporalConnectionOptions } from '../../src/core/temporal/connection.js';

// The connection options every Temporal connection of the api, worker and tools is built from.
const dir = mkdtempSync(join(tmpdir(), 'temporal-tls-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const CERT = file('client.crt', 'client certificate');
const KEY = file('client.key', 'client key');
const CA = file('ca.pem', 'private CA');
const optionsFor = (env: Record<string, string>) =>
  temporalConnectionOptions(loadConfig({ TEMPORAL_ADDRESS: 'temporal.example:7233', ...env }).temporal);

describe('Temporal connection settings', () => {
  it('connects in plain text by default', () => {
    expect(optionsFor({})).toEqual({ address: 'temporal.example:7233', tls: undefined, apiKey: undefined });
  });

  it('verifies the server against the system roots with TEMPORAL_TLS=true', () => {
    expect(optionsFor({ TEMPORAL_TLS: 'true' }).tls).toBe(true);
  });

  it('presents the client certificate and key for mutual TLS, trusting a private CA when given', () => {
    expect(optionsFor({ TEMPORAL_TLS_CERT_PATH: CERT, TEMPORAL_TLS_KEY_PATH: KEY }).tls).toEqual({
      clientCertPair: { crt: Buffer.from('client certificate'), key: Buffer.from('client key') },
      serverRootCACertificate: undefined,
    });
    expect(optionsFor({ TEMPORAL_TLS_CERT_PATH: CERT, TEMPORAL_TLS_KEY_PATH: KEY, TEMPORAL_TLS_CA_PATH: CA }).tls).toEqual({
      clientCertPair: { crt: Buffer.from('client certificate'), key: Buffer.from('client key') },
      serverRootCACertificate: Buffer.from('private CA'),
    });
  });

  it('trusts a private CA without a client certificate', () => {
    expect(optionsFor({ TEMPORAL_TLS_CA_PATH: CA }).tls).toEqual({ clientCertPair: undefined, serverRootCACertificate: Buffer.from('private CA') });
  });

  it('passes the API key on, leaving TLS to the SDK, which turns it on for a key (Temporal Cloud)', () => {
    expect(optionsFor({ TEMPORAL_API_KEY: 'secret-key' })).toEqual({ address: 'temporal.example:7233', tls: undefined, apiKey: 'secret-key' });
  });

  it.each([
    ['TEMPORAL_TLS_CERT_PATH', { TEMPORAL_TLS_KEY_PATH: KEY }],
    ['TEMPORAL_TLS_KEY_PATH', { TEMPORAL_TLS_CERT_PATH: CERT }],
  ])('refuses half a client certificate at start-up, naming the missing %s', (missing, env) => {
    expect(() => loadConfig({ TEMPORAL_ADDRESS: 'temporal.example:7233', ...env })).toThrow(
      `Invalid configuration:\n  ${missing}: must be set too: mutual TLS needs both the client certificate and its key`,
    );
  });

  it('fails with the path when a certificate file cannot be read', () => {
    expect(() => optionsFor({ TEMPORAL_TLS_CA_PATH: join(dir, 'missing.pem') })).toThrow(/ENOENT.*missing\.pem/);
  });

  it('re-reads the credential files every minute by default, and refuses a reload interval out of its bounds', () => {
    expect(loadConfig({}).temporal.credentialsReloadMs).toBe(60_000);
    expect(loadConfig({ TEMPORAL_CREDENTIALS_RELOAD_MS: '0' }).temporal.credentialsReloadMs).toBe(0);
    expect(() => loadConfig({ TEMPORAL_CREDENTIALS_RELOAD_MS: '3600001' })).toThrow(/TEMPORAL_CREDENTIALS_RELOAD_MS: /);
    expect(() => loadConfig({ TEMPORAL_CREDENTIALS_RELOAD_MS: '-1' })).toThrow(/TEMPORAL_CREDENTIALS_RELOAD_MS: /);
  });

  it('keeps the path of the API key file, so that the running process can read it again', () => {
    const apiKeyFile = file('api-key', 'key-from-file\n');
    expect(loadConfig({ TEMPORAL_API_KEY_FILE: apiKeyFile }).temporal).toMatchObject({ apiKey: 'key-from-file', apiKeyFile });
  });
});
