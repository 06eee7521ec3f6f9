import { NativeConnection, type Worker } from '@temporalio/worker';
import type { CredentialSource } from '../src/core/temporal/credentialSource.js';
import { RETIRED_CONNECTION_CLOSE_MS } from '../src/core/temporal/rotatingClient.js';

/**
 * Keeps a running worker on the process's current Temporal credentials: a new API key goes to its connection
 * (`setApiKey`, used from the next call on); new TLS files get it a new connection (the SDK's `worker.connection`
 * setter, which moves polls and answers to it), the previous one closed a minute later, after the calls made on it.
 */
export function followCredentials(worker: Worker, source: CredentialSource): void {
  source.onChange(async ({ apiKey, tls }) => {
    const connection = worker.connection;
    if (!connection || worker.getState() !== 'RUNNING') return;
    if (tls) {
      worker.connection = await NativeConnection.connect(source.options());
      setTimeout(() => void connection.close().catch(() => {}), RETIRED_CONNECTION_CLOSE_MS).unref();
    } else if (apiKey) {
      await connection.setApiKey(source.apiKey() ?? '');
    }
  });
}
