import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { createDatabase } from '../../db/pool.js';
import { migrateToLatest } from '../../db/migrate.js';
import { loadConfig } from '../../src/core/config.js';
import { startEmbeddedPostgres, withDatabase } from '../../process/infra/embeddedPostgres.js';
import { freePort } from '../../process/infra/freePort.js';
import { resolveTemporalBinary } from '../../process/infra/temporalBinaries.js';
import { startTemporalDevServer } from '../../process/infra/temporalDevServer.js';
import { readTemporalDevSettings } from '../../process/infra/temporalDevSettings.js';

import { TEMPLATE_DATABASE } from './template.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    temporalAddress: string;
    temporalNamespace: string;
    testServerPath: string;
  }
}

/**
 * Starts one real PostgreSQL and one real Temporal dev server for the whole run (or uses DATABASE_URL and
 * TEMPORAL_ADDRESS), and migrates a template database that each test file clones (test/harness/database.ts).
 */
export default async function setup(project: TestProject) {
  const config = loadConfig({ ...process.env, NODE_ENV: 'test' });
  const stops: Array<() => Promise<void>> = [];
  const log = (line: string) => console.log(`[test harness] ${line}`);

  let serverUrl = config.database.url;
  if (!serverUrl) {
    const dataDir = await mkdtemp(join(tmpdir(), 'cb-test-pg-'));
    const postgres = await startEmbeddedPostgres({ dataDir, port: await freePort(), persistent: false });
    stops.push(async () => {
      await postgres.stop();
      await rm(dataDir, { recursive: true, force: true });
    });
    serverUrl = postgres.url;
  }
  await recreateTemplate(serverUrl);

  let temporalAddress = config.temporal.address;
  let namespace = config.temporal.namespace;
  if (!temporalAddress) {
    const cliPath = await resolveTemporalBinary('temporal', config.temporal, log);
    const settings = await readTemporalDevSettings(join(project.config.root, 'temporal-dev.yml'));
    const temporal = await startTemporalDevServer(settings, { cliPath, mode: 'test' });
    stops.push(temporal.stop);
    temporalAddress = temporal.address;
    namespace = temporal.namespace;
  }
  const testServerPath =
    (await resolveTemporalBinary('temporal-test-server', config.temporal, log)) ??
    '';

  project.provide('databaseUrl', serverUrl);
  project.provide('temporalAddress', temporalAddress);
  project.provide('temporalNamespace', namespace);
  project.provide('testServerPath', testServerPath);

  return async () => {
    for (const stop of stops.reverse()) await stop();
  };
}

async function recreateTemplate(serverUrl: string) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  const template = createDatabase(withDatabase(serverUrl, TEMPLATE_DATABASE), 2);
  try {
    await migrateToLatest(template.db);
  } finally {
    await template.close();
  }
}
