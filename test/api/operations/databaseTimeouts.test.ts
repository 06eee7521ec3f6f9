import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { saveBankSettings } from '../../../db/bank/accounts.js';
import { loadConfig } from '../../../src/core/config.js';
import { buildApiDeps, openDatabase, startApiServer } from '../../../process/wiring.js';
import { useTestDatabase } from '../../harness/database.js';
import { addTestMember, bearer, createTestGuild, createTestKey } from '../../harness/fixtures.js';
import { createHttpClient } from '../../harness/httpClient.js';
import { captureLogs } from '../../harness/capturedLogs.js';
import { testGateway } from '../../harness/temporal.js';

// A statement PostgreSQL gives up on (statement_timeout, lock_timeout) is the database too busy for the request now:
// 503 with Retry-After, like an outage, never a 500; nothing is written.

const database = useTestDatabase();
const gateway = testGateway();
afterAll(() => gateway.client.connection.close());

describe.each([
  ['statement_timeout', { DATABASE_STATEMENT_TIMEOUT_MS: '300', DATABASE_LOCK_TIMEOUT_MS: '0' }, '57014'],
  ['lock_timeout', { DATABASE_STATEMENT_TIMEOUT_MS: '0', DATABASE_LOCK_TIMEOUT_MS: '300' }, '55P03'],
])('a write blocked on a row lock past %s', (_name, timeouts, sqlState) => {
  it(`is cancelled with SQLSTATE ${sqlState} and answered 503 SERVICE_UNAVAILABLE with Retry-After; the balance is unchanged`, async () => {
    const { logger, lines } = captureLogs();
    const config = loadConfig({ NODE_ENV: 'test', PORT: '0', API_OPS_PORT: '0', SHUTDOWN_PROPAGATION_MS: '0', DATABASE_URL: database.url, DATABASE_BUDGET_INSTANCES: 'api=1', ...timeouts });
    const handle = openDatabase(config, logger, 'api');
    const api = await startApiServer(buildApiDeps(config, handle.db, gateway, logger));
    const locker = new pg.Client({ connectionString: database.url });
    try {
      const guild = await createTestGuild(database.db);
      await saveBankSettings(database.db, guild.id, { currency: { name: 'gem', plural: 'gems', emoji: '💎' }, startingBalance: 10, maxBalance: null, logChannelId: null });
      const { key } = await createTestKey(database.db, guild, { scopes: ['bank:read', 'bank:write'] });
      const userId = await addTestMember(database.db, guild);
      const http = createHttpClient(api.url);
      const path = `/guilds/${guild.id}/bank/members/${userId}/transactions`;
      expect((await http('POST', path, { headers: bearer(key), body: { type: 'add', amount: 5 } })).status).toBe(201);

      await locker.connect();
      await locker.query('begin');
      await locker.query('select 1 from bank_accounts where guild_id = $1 and user_id = $2 for update', [guild.id, userId]);
      const blocked = await http('POST', path, { headers: bearer(key), body: { type: 'add', amount: 7 } });
      expect([blocked.status, blocked.headers['retry-after'], (blocked.body as { error: string }).error]).toEqual([503, '5', 'SERVICE_UNAVAILABLE']);
      await locker.query('rollback');

      const failed = lines.filter((line) => line.msg === 'request failed');
      expect(failed.map((line) => (line.err as { code: string }).code)).toEqual([sqlState]);
      const member = await http('GET', `/guilds/${guild.id}/bank/members/${userId}`, { headers: bearer(key) });
      expect([member.status, (member.body as { balance: number }).balance]).toEqual([200, 15]);
    } finally {
      await locker.end().catch(() => {});
      await api.close();
      await handle.close();
    }
  }, 60_000);
});
