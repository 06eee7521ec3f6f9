import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findBalance, saveBankSettings } from '../../../db/bank/accounts.js';
import { createDatabase, type DatabaseHandle } from '../../../db/pool.js';
import { useTestDatabase } from '../../harness/database.js';
import { eventually } from '../../harness/eventually.js';
import { addTestMember, bearer, createTestGuild, createTestKey } from '../../harness/fixtures.js';
import { countWrites } from '../../harness/rows.js';
import { startTcpProxy, type TcpProxy } from '../../harness/tcpProxy.js';
import { startTestApp } from '../../harness/testApp.js';

// The app reaches the database through a proxy that can drop its connections the way a stopped server does.
const database = useTestDatabase();
let proxy: TcpProxy;
let appDatabase: DatabaseHandle;
let app: Awaited<ReturnType<typeof startTestApp>>;
beforeAll(async () => {
  proxy = await startTcpProxy(database.url);
  appDatabase = createDatabase(proxy.url, 5);
  app = await startTestApp(appDatabase.db);
});
afterAll(async () => {
  await app.close();
  await appDatabase.close();
  await proxy.close();
});

/** The port that the backend waiting for a row lock (the request's transaction) sees its client on, once there is one. */
async function waitingConnection(): Promise<number | undefined> {
  const { rows } = await sql<{ port: number }>`
    select client_port as port from pg_stat_activity
    where datname = ${database.name} and wait_event_type = 'Lock' and pid <> pg_backend_pid()`.execute(database.db);
  return rows[0]?.port;
}

it('answers 503 with Retry-After when the database connection of a request is lost in the middle of its transaction', async () => {
  const guild = await createTestGuild(database.db);
  await saveBankSettings(database.db, guild.id, { currency: { name: 'gem', plural: 'gems', emoji: '💎' }, startingBalance: 100, maxBalance: null, logChannelId: null });
  const { key } = await createTestKey(database.db, guild, { scopes: ['bank:read', 'bank:write'] });
  const userId = await addTestMember(database.db, guild);
  const path = `/guilds/${guild.id}/bank/members/${userId}/transactions`;
  expect((await app.http('POST', path, { headers: bearer(key), body: { type: 'add', amount: 1 } })).status).toBe(201);
  const before = await countWrites(database.db, guild.id);

  // Another session holds the account row, so the request's transaction stops at its lock until its connection is cut.
  const locker = new pg.Client({ connectionString: database.url });
  await locker.connect();
  try {
    await locker.query('begin');
    await locker.query('select 1 from bank_accounts where guild_id = $1 and user_id = $2 for update', [guild.id, userId]);
    const response = app.http('POST', path, { headers: { ...bearer(key), 'Idempotency-Key': 'lost-mid-transaction' }, body: { type: 'add', amount: 50 } });
    const port = await eventually(waitingConnection, (found) => found !== undefined);
    expect(port).toBeDefined();
    // Only the request's connection: the others stay up, so its cleanup (releasing the key) can run.
    proxy.cut(port);

    const res = await response;
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual({ error: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
  } finally {
    await locker.query('rollback');
    await locker.end();
  }
  expect(await countWrites(database.db, guild.id)).toEqual(before);
  expect(await findBalance(database.db, guild.id, userId)).toBe(101);
  // The pool recovers once the server answers again.
  expect((await app.http('GET', `/guilds/${guild.id}/bank/members/${userId}`, { headers: bearer(key) })).status).toBe(200);
});
