import { migrateToLatest, type MigrationEvent } from '../../db/migrate.js';
import { createDatabase } from '../../db/pool.js';
import { loadConfigOrExit } from './bootConfig.js';

const config = loadConfigOrExit();
if (!config.database.url) {
  console.error('DATABASE_URL is not set.');
  process.exit(2);
}

function report(event: MigrationEvent): void {
  if (event.type === 'applied') console.log(`applied ${event.name}`);
  else if (event.type === 'waiting-for-lock') console.log('waiting for another migrate to finish (it holds the migration lock)');
  else {
    const { name, attempt, attempts, retryInMs, sqlState } = event.notice;
    console.log(`${name}: a lock was not granted within ${config.database.migration.lockTimeoutMs} ms (SQLSTATE ${sqlState}, attempt ${attempt} of ${attempts}); trying again in ${retryInMs} ms`);
  }
}

// Direct to PostgreSQL: the run holds a session advisory lock, which a transaction pooler would strand on whatever
// server connection it handed out. No statement timeout (an index build takes what it takes); each migration sets
// its own lock_timeout.
const { db, close } = createDatabase(config.database.directUrl ?? config.database.url, 2, { applicationName: 'community-bot-migrate' });
try {
  const { applied } = await migrateToLatest(db, { ...config.database.migration, onEvent: report });
  if (!applied.length) console.log('Database is up to date.');
} catch (err) {
  console.error(`error: ${(err as Error).message}`);
  process.exitCode = 1;
} finally {
  await close();
}
