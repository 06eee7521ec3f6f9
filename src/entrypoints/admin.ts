import { userInfo } from 'node:os';
import { createDatabase } from '../../db/pool.js';
import { runAdmin } from '../admin/runAdmin.js';
import { systemClock } from '../clock.js';
import { loadConfig } from '../config.js';

const config = loadConfig();
// Without DATABASE_URL the CLI talks to the embedded PostgreSQL of a running `npm run dev`.
const url = config.database.url ?? `postgres://postgres:postgres@127.0.0.1:${config.dev.postgresPort}/community_bot`;
const { db, close } = createDatabase(url, 2);
try {
  process.exitCode = await runAdmin(process.argv.slice(2), {
    db,
    clock: systemClock,
    io: { out: (line) => console.log(line), err: (line) => console.error(line) },
    operator: { type: 'operator', name: userInfo().username },
  });
} finally {
  await close();
}
