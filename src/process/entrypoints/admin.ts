import { userInfo } from 'node:os';
import { createDatabase } from '../../../db/pool.js';
import { runAdmin } from '../admin/runAdmin.js';
import { systemClock } from '../../core/clock.js';
import { loadConfig } from '../../core/config.js';

// Some containers run as a uid without a passwd entry; the audit log then names no one in particular.
const osUserName = () => {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
};

const config = loadConfig();
// Without DATABASE_URL the CLI works on the embedded PostgreSQL of a running `npm run dev` (src/process/dev/devInfrastructure.ts).
const url = config.database.url ?? `postgres://postgres:postgres@127.0.0.1:${config.dev.postgresPort}/community_bot`;
const { db, close } = createDatabase(url, 2);
try {
  process.exitCode = await runAdmin(process.argv.slice(2), {
    db,
    clock: systemClock,
    operator: osUserName(),
    allowInsecureWebhookUrls: config.webhooks.allowInsecureLocal,
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
  });
} finally {
  await close();
}
