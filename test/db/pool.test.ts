import { CompiledQuery, sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { createDatabase, markHot } from '../../db/pool.js';
import { useTestDatabase } from '../harness/database.js';

const database = useTestDatabase();
let single: ReturnType<typeof createDatabase> | undefined;
afterAll(() => single?.close());

const preparedStatements = async (db: ReturnType<typeof createDatabase>['db']) =>
  (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(db)).rows;

it('prepares a hot statement once per connection and runs the others unnamed', async () => {
  single = createDatabase(database.url, 1);
  const hot = CompiledQuery.raw('select $1::int + 1 as n', [1]);
  markHot(hot.sql);
  for (const value of [1, 2, 3]) {
    const { rows } = await single.db.executeQuery<{ n: number }>(CompiledQuery.raw(hot.sql, [value]));
    expect(rows).toEqual([{ n: value + 1 }]);
  }
  await single.db.executeQuery(CompiledQuery.raw('select $1::int + 2 as n', [1]));
  const prepared = await preparedStatements(single.db);
  expect(prepared.map((p) => p.statement)).toEqual([hot.sql]);
  expect(prepared[0]!.name).toMatch(/^hot_\d+$/);
});

it('answers pool.query, whose callback the hot-statement wrapper passes on', async () => {
  const pool = createDatabase(database.url, 1);
  try {
    const { rows } = await pool.pool.query<{ n: number }>('select $1::int as n', [5]);
    expect(rows).toEqual([{ n: 5 }]);
  } finally {
    await pool.close();
  }
});
