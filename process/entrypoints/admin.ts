import { userInfo } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { createDatabase } from '../../db/pool.js';
import { adminSetup } from '../admin/adminSetup.js';
import { runAdmin } from '../admin/runAdmin.js';
import { systemClock } from '../../src/core/clock.js';
import { loadConfig, type Config } from '../../src/core/config.js';
import { createLogger } from '../../src/core/logger.js';
import { createApplicationCommands } from '../../src/platform/discord/applicationCommands.js';
import { createPlatform, processDiscordRest } from '../platform.js';
import { temporalConnectionOptions } from '../../src/core/temporal/connection.js';

// Some containers run as a uid without a passwd entry; the audit log then names no one in particular.
const osUserName = () => {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
};

const root = fileURLToPath(new URL('../..', import.meta.url));
let config: Config;
let setup: Awaited<ReturnType<typeof adminSetup>>;
try {
  config = loadConfig();
  setup = await adminSetup(config, root);
} catch (err) {
  // A configuration the service refuses (for example WEBHOOK_ALLOW_INSECURE_LOCAL=true in production).
  process.stderr.write(`error: ${(err as Error).message}\n`);
  process.exit(2);
}
const { db, close } = createDatabase(setup.databaseUrl, 2, { applicationName: 'community-bot-admin' });
// The CLI's output is its answer: the adapter's own log lines (a refused token) stay out of it; its errors say it.
const platform = config.platform.kind === 'discord' ? createPlatform(config, db, createLogger('silent', 'admin')) : undefined;
const applicationCommands = config.platform.kind === 'discord' ? createApplicationCommands(processDiscordRest(config.platform, createLogger('silent', 'admin'))) : undefined;
let temporal: Connection | undefined;
try {
  const temporalConfig = setup.temporal;
  process.exitCode = await runAdmin(process.argv.slice(2), {
    db,
    clock: systemClock,
    operator: osUserName(),
    allowInsecureWebhookUrls: setup.allowInsecureWebhookUrls,
    platform,
    applicationCommands,
    // Only commands that emit events connect; a Temporal that is not there fails fast and leaves them to the relay.
    connectTemporal: temporalConfig
      ? async () => {
          temporal = await Connection.connect({ ...temporalConnectionOptions(temporalConfig), connectTimeout: '3s' });
          return { client: new Client({ connection: temporal, namespace: temporalConfig.namespace }), taskQueue: temporalConfig.taskQueue };
        }
      : undefined,
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
  });
} finally {
  await temporal?.close();
  await close();
}
