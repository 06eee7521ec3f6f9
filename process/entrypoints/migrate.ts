import { migrateToLatest } from '../../db/migrate.js';
import { createDatabase } from '../../db/pool.js';
import { loadConfig } from '../../src/core/config.js';

const config = loadConfig();
if (!config.database.url) {
  console.error('DATABASE_URL is not set.');
  process.exit(2);
}
// Direct to PostgreSQL: the migrator holds a session advisory lock, which a transaction pooler would strand on
// whatever server connection it handed out. No statement or lock timeout of the services' (an index build takes
// what it takes).
const { db, close } = createDatabase(config.database.directUrl ?? config.database.url, 2, { applicationName: 'community-bot-migrate' });
try {
  const { results } = await migrateToLatest(db);
  for (const r of results ?? []) console.log(`${r.status === 'Success' ? 'applied' : r.status} ${r.migrationName}`);
  if (!results?.length) console.log('Database is up to date.');
} finally {
  await close();
}
