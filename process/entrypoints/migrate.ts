import { migrateToLatest } from '../../db/migrate.js';
import { createDatabase } from '../../db/pool.js';
import { loadConfig } from '../../src/core/config.js';

const config = loadConfig();
if (!config.database.url) {
  console.error('DATABASE_URL is not set.');
  process.exit(2);
}
const { db, close } = createDatabase(config.database.url, 2);
try {
  const { results } = await migrateToLatest(db);
  for (const r of results ?? []) console.log(`${r.status === 'Success' ? 'applied' : r.status} ${r.migrationName}`);
  if (!results?.length) console.log('Database is up to date.');
} finally {
  await close();
}
