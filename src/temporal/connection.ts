import { readFile } from 'node:fs/promises';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import type { Config } from '../config.js';

type TemporalConfig = Config['temporal'];

async function connectionOptions(config: TemporalConfig) {
  if (!config.address) throw new Error('TEMPORAL_ADDRESS is not set.');
  const tls =
    config.tls || config.tlsCertPath
      ? config.tlsCertPath && config.tlsKeyPath
        ? { clientCertPair: { crt: await readFile(config.tlsCertPath), key: await readFile(config.tlsKeyPath) } }
        : true
      : undefined;
  return { address: config.address, tls, apiKey: config.apiKey };
}

/** A client for starting and describing workflows (api, admin, tests). */
export async function connectTemporalClient(config: TemporalConfig): Promise<Client> {
  const connection = await Connection.connect(await connectionOptions(config));
  return new Client({ connection, namespace: config.namespace });
}

/** The worker's connection (Rust core). */
export async function connectWorkerConnection(config: TemporalConfig): Promise<NativeConnection> {
  return NativeConnection.connect(await connectionOptions(config));
}
