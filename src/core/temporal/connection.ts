import { readFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import type { Config } from '../config.js';

type TemporalConfig = Config['temporal'];

export interface TemporalConnectionOptions {
  address: string;
  tls?: true | { clientCertPair?: { crt: Buffer; key: Buffer }; serverRootCACertificate?: Buffer };
  apiKey?: string;
}

/**
 * Address, TLS (server-verified, against a private CA, or mutual with a client certificate) and API key, for every
 * connection. An API key alone turns TLS on: the SDK does so when no TLS option is given (Temporal Cloud).
 */
export function temporalConnectionOptions(config: TemporalConfig): TemporalConnectionOptions {
  if (!config.address) throw new Error('TEMPORAL_ADDRESS is not set.');
  const clientCertPair =
    config.tlsCertPath && config.tlsKeyPath ? { crt: readFileSync(config.tlsCertPath), key: readFileSync(config.tlsKeyPath) } : undefined;
  const serverRootCACertificate = config.tlsCaPath ? readFileSync(config.tlsCaPath) : undefined;
  const tls = clientCertPair || serverRootCACertificate ? { clientCertPair, serverRootCACertificate } : config.tls ? true : undefined;
  return { address: config.address, tls, apiKey: config.apiKey };
}

/** A connected client, for tools that need Temporal right away (history recording). */
export async function connectTemporalClient(config: TemporalConfig): Promise<Client> {
  const connection = await Connection.connect(temporalConnectionOptions(config));
  return new Client({ connection, namespace: config.namespace });
}

/** The worker's connection (Rust core). */
export function connectWorkerConnection(config: TemporalConfig): Promise<NativeConnection> {
  return NativeConnection.connect(temporalConnectionOptions(config));
}
