import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../db/pool.js';
import { withDatabase } from '../../process/infra/embeddedPostgres.js';

import { TEMPLATE_DATABASE } from './template.js';

async function adminQuery(sql: string) {
  const admin = new pg.Client({ connectionString: inject('databaseUrl') });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

export interface TestDatabase extends DatabaseHandle {
  url: string;
  name: string;
}

/** A fresh, migrated database of its own for the calling test file (cloned from the run's template). */
export function useTestDatabase(): TestDatabase {
  const handle = {} as TestDatabase;
  beforeAll(async () => {
    const name = `t_${randomBytes(6).toString('hex')}`;
    await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
    const url = withDatabase(inject('databaseUrl'), name);
    Object.assign(handle, createDatabase(url, 10), { url, name });
  });
  afterAll(async () => {
    await handle.close?.();
    if (handle.name) await adminQuery(`DROP DATABASE IF EXISTS ${handle.name} WITH (FORCE)`);
  });
  return handle;
}
