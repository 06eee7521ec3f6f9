import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { buildApiDeps, openDatabase } from '../../process/wiring.js';
import { useTestDatabase } from '../harness/database.js';
import { eventually } from '../harness/eventually.js';
import { captureLogs } from '../harness/capturedLogs.js';
import { startTcpProxy } from '../harness/tcpProxy.js';
import { testGateway } from '../harness/temporal.js';

// The PostgreSQL sessions as an operator sees them: named per process, with the configured timeouts, pool errors in
// the log, the connection budget checked at start, and the LISTEN and migrate connections on DATABASE_DIRECT_URL.

const database = useTestDatabase();
const opened: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  for (const handle of opened) await handle.close();
});
const config = (env: Record<string, string> = {}) => loadConfig({ NODE_ENV: 'test', DATABASE_URL: database.url, DATABASE_BUDGET_INSTANCES: 'api=1', ...env });

describe('a process pool', () => {
  it('names its connections after the process and sets the timeouts on each', async () => {
    const { logger } = captureLogs();
    const handle = openDatabase(config({ DATABASE_STATEMENT_TIMEOUT_MS: '12000', DATABASE_LOCK_TIMEOUT_MS: '3000', DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '45000' }), logger, 'worker');
    opened.push(handle);
    const { rows } = await sql<{ name: string; statement: string; lock: string; idle: string }>`
      select application_name as name, current_setting('statement_timeout') as statement, current_setting('lock_timeout') as lock,
             current_setting('idle_in_transaction_session_timeout') as idle
      from pg_stat_activity where pid = pg_backend_pid()`.execute(handle.db);
    expect(rows).toEqual([{ name: 'community-bot-worker', statement: '12s', lock: '3s', idle: '45s' }]);
  });

  it('sends no timeout set to 0, leaving the server its own', async () => {
    const { logger } = captureLogs();
    const handle = openDatabase(config({ DATABASE_STATEMENT_TIMEOUT_MS: '0', DATABASE_LOCK_TIMEOUT_MS: '0', DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '0' }), logger, 'bot');
    opened.push(handle);
    const { rows } = await sql<{ name: string; statement: string; lock: string }>`
      select application_name as name, current_setting('statement_timeout') as statement, current_setting('lock_timeout') as lock
      from pg_stat_activity where pid = pg_backend_pid()`.execute(handle.db);
    expect(rows).toEqual([{ name: 'community-bot-bot', statement: '0', lock: '0' }]);
  });

  it('logs a connection the server ended while it sat idle in the pool, and carries on with a new one', async () => {
    const { logger, lines } = captureLogs();
    const handle = openDatabase(config(), logger, 'api');
    opened.push(handle);
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db);
    await sql`select pg_terminate_backend(${rows[0]!.pid})`.execute(database.db);
    const logged = await eventually(async () => lines.filter((line) => line.msg.startsWith('PostgreSQL connection lost')), (found) => found.length > 0);
    expect(logged).toHaveLength(1);
    expect(logged[0]!.level).toBe(40);
    expect((logged[0]!.err as { message: string }).message).toMatch(/terminat/);
    expect((await sql<{ n: number }>`select 1 as n`.execute(handle.db)).rows).toEqual([{ n: 1 }]);
  });
});

describe('the connection budget at start', () => {
  const limits = async () => {
    const { rows } = await sql<{ max: number; reserved: number }>`
      select current_setting('max_connections')::int as max, current_setting('superuser_reserved_connections')::int
        + coalesce(current_setting('reserved_connections', true), '0')::int as reserved`.execute(database.db);
    return rows[0]!;
  };

  it('warns, naming the sum and the server limit, when the planned processes would exceed max_connections', async () => {
    const { max, reserved } = await limits();
    const { logger, lines } = captureLogs();
    // Enough apis at 21 connections each (the pool and the credential cache's LISTEN) to pass the limit.
    const apis = Math.ceil((max - reserved) / 21) + 1;
    const handle = openDatabase(config({ DATABASE_BUDGET_INSTANCES: `api=${apis},worker=2,bot=1` }), logger, 'api');
    opened.push(handle);
    expect(await handle.budgetChecked).toBe(false);
    const planned = apis * 21 + 2 * 20 + 20 + 2;
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      [
        40,
        `PostgreSQL connection budget exceeded: the deployment may open ${planned} connections (${apis} api × 21 + 2 worker × 20 + 1 bot × 20 + migrate 2), ` +
          `the server allows ${max - reserved} (max_connections ${max} less ${reserved} reserved); lower DATABASE_POOL_MAX or raise max_connections`,
      ],
    ]);
  });

  it('says nothing when the plan fits', async () => {
    const { logger, lines } = captureLogs();
    const handle = openDatabase(config({ DATABASE_BUDGET_INSTANCES: 'api=2,worker=2,bot=1', DATABASE_POOL_MAX: '5' }), logger, 'bot');
    opened.push(handle);
    expect(await handle.budgetChecked).toBe(true);
    expect(lines).toEqual([]);
  });

  it('refuses a malformed plan at start', () => {
    expect(() => config({ DATABASE_BUDGET_INSTANCES: 'api:2' })).toThrow(
      new Error('Invalid configuration:\n  DATABASE_BUDGET_INSTANCES: must list process counts such as api=2,worker=2,bot=1'),
    );
  });
});

describe('DATABASE_DIRECT_URL', () => {
  it('carries the api credential cache LISTEN connection while DATABASE_URL (a transaction pooler here) cannot', async () => {
    const pooler = await startTcpProxy(database.url);
    pooler.setDown(true);
    const settings = config({ DATABASE_URL: pooler.url, DATABASE_DIRECT_URL: database.url });
    const gateway = testGateway();
    const { credentials } = buildApiDeps(settings, database.db, gateway, captureLogs().logger);
    try {
      await eventually(async () => credentials!.listening, (listening) => listening);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where application_name = 'community-bot-api-listen'`.execute(database.db);
      expect(rows).toEqual([{ n: 1 }]);
    } finally {
      await credentials?.close();
      await gateway.client.connection.close();
      await pooler.close();
    }
  });

  it('is where migrate connects', async () => {
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', 'process/entrypoints/migrate.ts'], {
      env: { PATH: process.env.PATH!, DATABASE_URL: 'postgres://nobody:none@127.0.0.1:1/none', DATABASE_DIRECT_URL: database.url },
    });
    expect((await run).stdout).toBe('Database is up to date.\n');
  }, 60_000);

  it('defaults to DATABASE_URL', () => {
    expect(config().database.directUrl).toBe(database.url);
  });
});
