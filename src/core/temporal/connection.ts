import { readFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import type { Config } from '../config.js';

type TemporalConfig = Config['temporal'];

/** Address, TLS (server-verified, or mutual with a client certificate) and API key, for every connection. */
export function temporalConnectionOptions(config: TemporalConfig) {
  if (!config.address) throw new Error('TEMPORAL_ADDRESS is not set.');
  const clientCert =
    config.tlsCertPath && config.tlsKeyPath
      ? { clientCertPair: { crt: readFileSync(config.tlsCertPath), key: readFileSync(config.tlsKeyPath) } }
      : undefined;
  const tls = clientCert ?? (config.tls ? true : undefined);
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
