import { join } from 'node:path';
import type { Config } from '../../src/core/config.js';
import { withLocalWebhooks } from '../dev/localWebhooks.js';
import { readTemporalDevSettings } from '../infra/temporalDevSettings.js';

export interface AdminSetup {
  databaseUrl: string;
  /** Without DATABASE_URL the CLI works on the embedded PostgreSQL of a running `npm run dev`. */
  devDatabase: boolean;
  /** Webhook endpoints may be http:// and loopback receivers: on the dev database unless configured otherwise. */
  allowInsecureWebhookUrls: boolean;
  /** Where event fan-outs start (TEMPORAL_ADDRESS, or dev's Temporal dev server); undefined: left to the worker's relay. */
  temporal: (Config['temporal'] & { address: string }) | undefined;
}

/**
 * What the admin CLI works on. With DATABASE_URL: that database, TEMPORAL_ADDRESS when set, and webhook URLs as
 * the config says. Without it: the database of a running `npm run dev` (process/dev/devInfrastructure.ts),
 * its Temporal (TEMPORAL_ADDRESS, else temporal-dev.yml's address) and, as dev does, local webhook receivers.
 */
export async function adminSetup(bootConfig: Config, root: string): Promise<AdminSetup> {
  const devDatabase = !bootConfig.database.url;
  const config = devDatabase ? withLocalWebhooks(bootConfig) : bootConfig;
  let address = config.temporal.address;
  if (!address && devDatabase) {
    const settings = await readTemporalDevSettings(join(root, 'temporal-dev.yml')).catch(() => undefined);
    if (settings) address = `${settings.ip}:${settings.port}`;
  }
  return {
    databaseUrl: config.database.url ?? `postgres://postgres:postgres@127.0.0.1:${config.dev.postgresPort}/community_bot`,
    devDatabase,
    allowInsecureWebhookUrls: config.webhooks.allowInsecureLocal,
    temporal: address ? { ...config.temporal, address } : undefined,
  };
}
