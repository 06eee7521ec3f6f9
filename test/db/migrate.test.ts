import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { migrateToLatest, type MigrationEvent } from '../../db/migrate.js';
import type { SchemaMigration } from '../../db/migrations/index.js';
import { createDatabase, type DatabaseHandle } from '../../db/pool.js';
import { loadConfig } from '../../src/core/config.js';
import { withDatabase } from '../../process/infra/embeddedPostgres.js';

// The migration runner against the harness's PostgreSQL, each test on an empty database of its own: one transaction
// per migration, migrations that run outside one (CREATE INDEX CONCURRENTLY), lock_timeout with bounded retries, and
// the migration lock shared by concurrent runs.

const LOCK_ID = '3853314791062309107';
const serverUrl = () => inject('databaseUrl');
const opened: Array<{ close?: () => Promise<void>; end?: () => Promise<void> }> = [];
const created: string[] = [];
afterAll(async () => {
  for (const handle of opened.reverse()) await (handle.close ?? handle.end)!.call(handle);
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  for (const name of created) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

let database: DatabaseHandle & { url: string };
beforeEach(async () => {
  const name = `m_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  created.push(name);
  const url = withDatabase(serverUrl(), name);
  database = Object.assign(createDatabase(url, 2), { url });
  opened.push(database);
});

/** Another session, as a long query or transaction of a service would be. */
async function otherSession(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  opened.push(client);
  return client;
}

const statements = (...texts: string[]): SchemaMigration => ({
  up: async (db: Kysely<any>) => {
    for (const text of texts) await sql.raw(text).execute(db);
  },
});
const outside = (...texts: string[]): SchemaMigration => ({ ...statements(...texts), transaction: false });

async function recorded(): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db);
  return rows.map((row) => row.name);
}
async function tables(): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = 'public' and tablename like 't\\_%' order by 1`.execute(database.db);
  return rows.map((row) => row.name);
}
async function columns(table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select column_name as name from information_schema.columns where table_name = ${table} order by ordinal_position`.execute(database.db);
  return rows.map((row) => row.name);
}

const base = { '001-one': statements('create table t_one (id int primary key)') };

describe('one transaction per migration', () => {
  it('leaves the migrations before a failing one applied and recorded, and the failing one rolled back and unrecorded', async () => {
    const migrations = { ...base, '002-two': statements('create table t_two (id int)', 'insert into t_missing values (1)'), '003-three': statements('create table t_three (id int)') };
    await expect(migrateToLatest(database.db, { migrations })).rejects.toThrow(new Error('migration 002-two failed: relation "t_missing" does not exist'));
    expect(await recorded()).toEqual(['001-one']);
    expect(await tables()).toEqual(['t_one']);

    // Fixed, the next run starts at the failed migration.
    const events: MigrationEvent[] = [];
    const fixed = { ...migrations, '002-two': statements('create table t_two (id int)') };
    expect(await migrateToLatest(database.db, { migrations: fixed, onEvent: (e) => void events.push(e) })).toEqual({ applied: ['002-two', '003-three'] });
    expect(events).toEqual([{ type: 'applied', name: '002-two' }, { type: 'applied', name: '003-three' }]);
    expect(await recorded()).toEqual(['001-one', '002-two', '003-three']);
    expect(await migrateToLatest(database.db, { migrations: fixed })).toEqual({ applied: [] });
  });

  it('refuses a database that applied a migration this release does not have, changing nothing', async () => {
    await migrateToLatest(database.db, { migrations: { ...base, '002-two': statements('create table t_two (id int)') } });
    await expect(migrateToLatest(database.db, { migrations: { ...base, '003-three': statements('create table t_three (id int)') } })).rejects.toThrow(
      new Error('the database has applied migrations this release does not have: 002-two (a newer release migrated it)'),
    );
    expect(await tables()).toEqual(['t_one', 't_two']);
  });

  it('refuses a pending migration that sorts before the last applied one, changing nothing', async () => {
    await migrateToLatest(database.db, { migrations: { ...base, '003-three': statements('create table t_three (id int)') } });
    const late = { ...base, '002-two': statements('create table t_two (id int)'), '003-three': statements('create table t_three (id int)') };
    await expect(migrateToLatest(database.db, { migrations: late })).rejects.toThrow(
      new Error('migrations sort before the last applied one (003-three) but were never applied: 002-two; rename them to sort after it'),
    );
    expect(await recorded()).toEqual(['001-one', '003-three']);
  });
});

describe('a migration that runs outside a transaction', () => {
  const concurrentIndex = outside('drop index concurrently if exists t_one_id_desc', 'create index concurrently t_one_id_desc on t_one (id desc)');

  it('builds an index concurrently, and the index is valid and recorded', async () => {
    expect(await migrateToLatest(database.db, { migrations: { ...base, '002-index': concurrentIndex } })).toEqual({ applied: ['001-one', '002-index'] });
    const { rows } = await sql<{ valid: boolean }>`select indisvalid as valid from pg_index where indexrelid = 't_one_id_desc'::regclass`.execute(database.db);
    expect(rows).toEqual([{ valid: true }]);
    expect(await recorded()).toEqual(['001-one', '002-index']);
  });

  it('is needed for CREATE INDEX CONCURRENTLY, which PostgreSQL refuses inside a transaction', async () => {
    const inTransaction = { up: concurrentIndex.up };
    await expect(migrateToLatest(database.db, { migrations: { ...base, '002-index': inTransaction } })).rejects.toThrow(
      new Error('migration 002-index failed: DROP INDEX CONCURRENTLY cannot run inside a transaction block'),
    );
    expect(await recorded()).toEqual(['001-one']);
  });

  it('is tried again from the start after a lock timeout, with the session lock_timeout reset afterwards', async () => {
    await migrateToLatest(database.db, { migrations: base });
    const holder = await otherSession();
    await holder.query('begin');
    await holder.query('lock table t_one in share mode');
    const events: MigrationEvent[] = [];
    const onEvent = async (event: MigrationEvent) => {
      events.push(event);
      if (event.type === 'lock-timeout') await holder.query('commit');
    };
    const lockSetting = { up: async (db: Kysely<any>) => void events.push({ type: 'applied', name: (await sql<{ v: string }>`select current_setting('lock_timeout') as v`.execute(db)).rows[0]!.v }) };
    await migrateToLatest(database.db, { migrations: { ...base, '002-index': concurrentIndex, '003-setting': lockSetting }, lockTimeoutMs: 200, attempts: 3, backoffMs: () => 0, onEvent });
    expect(events).toEqual([
      { type: 'lock-timeout', notice: { name: '002-index', attempt: 1, attempts: 3, retryInMs: 0, sqlState: '55P03' } },
      { type: 'applied', name: '002-index' },
      { type: 'applied', name: '200ms' },
      { type: 'applied', name: '003-setting' },
    ]);
    const { rows } = await sql<{ v: string }>`select current_setting('lock_timeout') as v`.execute(database.db);
    expect(rows).toEqual([{ v: '0' }]);
  });
});

describe('lock_timeout with bounded retries', () => {
  const addColumn = { '002-column': statements('alter table t_one add column extra int') };

  it('waits out a lock another session holds, trying again until it is released', async () => {
    await migrateToLatest(database.db, { migrations: base });
    const holder = await otherSession();
    await holder.query('begin');
    await holder.query('select * from t_one');
    const events: MigrationEvent[] = [];
    let timeouts = 0;
    const onEvent = async (event: MigrationEvent) => {
      events.push(event);
      if (event.type === 'lock-timeout' && ++timeouts === 2) await holder.query('commit');
    };
    await migrateToLatest(database.db, { migrations: { ...base, ...addColumn }, lockTimeoutMs: 200, attempts: 3, backoffMs: () => 0, onEvent });
    expect(events).toEqual([
      { type: 'lock-timeout', notice: { name: '002-column', attempt: 1, attempts: 3, retryInMs: 0, sqlState: '55P03' } },
      { type: 'lock-timeout', notice: { name: '002-column', attempt: 2, attempts: 3, retryInMs: 0, sqlState: '55P03' } },
      { type: 'applied', name: '002-column' },
    ]);
    expect(await columns('t_one')).toEqual(['id', 'extra']);
    expect(await recorded()).toEqual(['001-one', '002-column']);
  });

  it('fails, naming the migration and the wait, once every attempt timed out; earlier migrations of the run stay applied', async () => {
    const holder = await otherSession();
    await sql`create table t_busy (id int)`.execute(database.db);
    await holder.query('begin');
    await holder.query('select * from t_busy');
    const events: MigrationEvent[] = [];
    const migrations = { ...base, '002-busy': statements('alter table t_busy add column extra int') };
    await expect(migrateToLatest(database.db, { migrations, lockTimeoutMs: 150, attempts: 3, backoffMs: (n) => n, onEvent: (e) => void events.push(e) })).rejects.toThrow(
      new Error(
        'migration 002-busy gave up after 3 attempts: each waited more than 150 ms for a lock another session holds (SQLSTATE 55P03; pg_locks and pg_stat_activity show which)',
      ),
    );
    expect(events).toEqual([
      { type: 'applied', name: '001-one' },
      { type: 'lock-timeout', notice: { name: '002-busy', attempt: 1, attempts: 3, retryInMs: 1, sqlState: '55P03' } },
      { type: 'lock-timeout', notice: { name: '002-busy', attempt: 2, attempts: 3, retryInMs: 2, sqlState: '55P03' } },
    ]);
    expect(await columns('t_busy')).toEqual(['id']);
    expect(await recorded()).toEqual(['001-one']);
    await holder.query('commit');
  });
});

describe('the migration lock', () => {
  it('makes a run wait while another migrate holds it, then go on', async () => {
    const other = await otherSession();
    await other.query(`select pg_advisory_lock(${LOCK_ID})`);
    const events: MigrationEvent[] = [];
    const onEvent = async (event: MigrationEvent) => {
      events.push(event);
      if (event.type === 'waiting-for-lock') await other.query(`select pg_advisory_unlock(${LOCK_ID})`);
    };
    expect(await migrateToLatest(database.db, { migrations: base, onEvent })).toEqual({ applied: ['001-one'] });
    expect(events).toEqual([{ type: 'waiting-for-lock' }, { type: 'applied', name: '001-one' }]);
    // Released at the end of the run: another session takes it at once.
    expect((await other.query(`select pg_try_advisory_lock(${LOCK_ID}) as locked`)).rows).toEqual([{ locked: true }]);
  });
});

describe('settings', () => {
  it.each([
    ['MIGRATION_LOCK_TIMEOUT_MS', '50', 'MIGRATION_LOCK_TIMEOUT_MS: Too small: expected number to be >=100'],
    ['MIGRATION_ATTEMPTS', '0', 'MIGRATION_ATTEMPTS: Too small: expected number to be >=1'],
  ])('refuses %s=%s', (name, value, line) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new Error(`Invalid configuration:\n  ${line}`));
  });

  it('defaults to a 3 s lock_timeout and 10 attempts', () => {
    expect(loadConfig({}).database.migration).toEqual({ lockTimeoutMs: 3000, attempts: 10 });
  });
});
