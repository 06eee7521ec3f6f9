import { Client, Connection, type ClientOptions } from '@temporalio/client';
import type { CredentialSource } from './credentialSource.js';
import type { TemporalGateway } from './gateway.js';

/** How long a client replaced after a TLS change keeps its connection, for the calls still running on it. */
export const RETIRED_CONNECTION_CLOSE_MS = 60_000;

/**
 * A gateway whose client follows the process's credentials. The API key is read at every call (the SDK's `apiKey`
 * callback), so a rotated key goes with the next call. TLS material is fixed when a gRPC connection is made, so new
 * TLS files give the gateway a new client on a new connection; the one it replaces is closed a minute later, after
 * the calls already made on it. Callers read `gateway.client` when they call, never keep it.
 */
export function rotatingGateway(source: CredentialSource, clientOptions: Omit<ClientOptions, 'connection'>, taskQueue: string): TemporalGateway {
  const connect = () => {
    const { apiKey, ...options } = source.options();
    return new Client({ ...clientOptions, connection: Connection.lazy({ ...options, apiKey: apiKey === undefined ? undefined : () => source.apiKey() ?? '' }) });
  };
  const gateway: TemporalGateway = { client: connect(), taskQueue };
  source.onChange(({ tls }) => {
    if (!tls) return;
    const retired = gateway.client.connection;
    gateway.client = connect();
    setTimeout(() => void retired.close().catch(() => {}), RETIRED_CONNECTION_CLOSE_MS).unref();
  });
  return gateway;
}
