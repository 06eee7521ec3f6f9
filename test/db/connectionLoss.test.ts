import { sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { createDatabase } from '../../db/pool.js';
import { useTestDatabase } from '../harness/database.js';

const database = useTestDatabase();
let handle: ReturnType<typeof createDatabase> | undefined;
afterAll(() => handle?.close());

/** Ends a backend the way an abrupt PostgreSQL stop does: the server closes the connection on its own. */
const terminate = (pid: number) => sql`select pg_terminate_backend(${pid})`.execute(database.db);

it('survives the server closing a checked-out connection between two queries of a transaction', async () => {
  handle = createDatabase(database.url, 2);
  const client = await handle.pool.connect();
  await client.query('begin');
  const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
  const ended = new Promise((resolve) => client.once('end', resolve));
  await terminate(rows[0]!.pid);
  // Without a listener of its own, the client's 'error' event here is an uncaught exception (vitest fails the run).
  await ended;
  await expect(client.query('select 1')).rejects.toThrow(/not queryable/);
  client.release();
  expect(handle.pool.totalCount).toBe(0);
  const after = await sql<{ n: number }>`select 1 as n`.execute(handle.db);
  expect(after.rows).toEqual([{ n: 1 }]);
});
