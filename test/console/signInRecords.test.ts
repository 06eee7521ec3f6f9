import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/core/clock.js';
import { captureLogs, LEVEL } from '../harness/capturedLogs.js';
import { useTestDatabase } from '../harness/database.js';
import { addTestMember, createTestGuild } from '../harness/fixtures.js';
import { useTestApp } from '../harness/testApp.js';
import { consoleClient, errorCodeOf, managedGuild } from './consoleClient.js';

// Behind one trusted proxy, so each test names the client address it comes from in X-Forwarded-For.
const database = useTestDatabase();
const clock = fixedClock(new Date('2026-11-28T10:00:00.000Z'));
const logs = captureLogs();
const LIMIT = 20;
const app = useTestApp(() => database.db, { clock, env: { TRUST_PROXY: '1', CONSOLE_SIGN_IN_LIMIT: String(LIMIT) }, deps: { logger: logs.logger } });

/** A console client whose every request comes from `address`. */
function clientAt(address: string) {
  const client = consoleClient(app.baseUrl);
  const from = { 'X-Forwarded-For': address };
  return {
    client,
    get: async (path: string) => client.get(path),
    post: (path: string, fields: Record<string, string> = {}, options: { csrf?: string | null; headers?: Record<string, string> } = {}) =>
      client.post(path, fields, { ...options, headers: { ...from, ...options.headers } }),
  };
}

const auditOf = (guildId: string) => database.db.selectFrom('audit_log').selectAll().where('guild_id', '=', guildId).where('action', '=', 'console.signIn').execute();
const linesFor = (msg: string, field: string, value: string) => logs.matching(msg).filter((l) => l[field] === value);

describe('console sign-ins, sign-outs and refusals are logged and audited', () => {
  it("writes a console.signIn audit row with the address in each server the user manages now, none elsewhere, and logs the sign-in at info", async () => {
    const guild = await managedGuild(database.db);
    const alsoManaged = await managedGuild(database.db, 'Second Guild');
    await addTestMember(database.db, alsoManaged, { userId: guild.managerId, roleIds: [alsoManaged.managerRoleId] });
    const memberOnly = await createTestGuild(database.db);
    await addTestMember(database.db, memberOnly, { userId: guild.managerId });
    const { post, client } = clientAt('192.0.2.10');
    expect((await post('/console/sign-in/local', { userId: guild.managerId })).status).toBe(303);

    for (const g of [guild, alsoManaged]) {
      const rows = await auditOf(g.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ actor_type: 'console_user', actor_id: guild.managerId, data: { address: '192.0.2.10', method: 'local' } });
    }
    expect(await auditOf(memberOnly.id)).toEqual([]);
    const [line] = linesFor('console sign-in', 'userId', guild.managerId);
    expect(line).toMatchObject({ level: LEVEL.info, clientAddress: '192.0.2.10', method: 'local' });
    expect([...(line!.servers as string[])].sort()).toEqual([guild.id, alsoManaged.id].sort());
    const sessionToken = client.state.cookie.split('=')[1]!;
    expect(JSON.stringify(logs.lines)).not.toContain(sessionToken);
  });

  it('logs a sign-out at info with the user and the address', async () => {
    const guild = await managedGuild(database.db);
    const { post, client } = clientAt('192.0.2.11');
    await post('/console/sign-in/local', { userId: guild.managerId });
    await client.get('/console');
    expect((await post('/console/sign-out')).status).toBe(303);
    const [line] = linesFor('console sign-out', 'userId', guild.managerId);
    expect(line).toMatchObject({ level: LEVEL.info, clientAddress: '192.0.2.11' });
  });

  it('logs a failed sign-in at warn with the address, and audits nothing', async () => {
    const { post } = clientAt('192.0.2.12');
    const res = await post('/console/sign-in/local', { userId: '1999999999999999999' }, { csrf: null });
    expect(res.status).toBe(400);
    const [line] = linesFor('console request refused', 'clientAddress', '192.0.2.12');
    expect(line).toMatchObject({ level: LEVEL.warn, code: 'SIGN_IN_FAILED', path: '/console/sign-in/local' });
    expect(line!.userId).toBeUndefined();
  });

  it('logs too many sign-ins from an address at warn', async () => {
    clock.set(new Date('2026-11-28T10:05:00.000Z'));
    const { post } = clientAt('192.0.2.13');
    for (let i = 0; i < LIMIT; i++) await post('/console/sign-in/local', { userId: '1999999999999999999' }, { csrf: null });
    const refused = await post('/console/sign-in/local', { userId: '1999999999999999999' }, { csrf: null });
    expect(refused.status).toBe(429);
    const lines = linesFor('console request refused', 'clientAddress', '192.0.2.13');
    expect(lines.filter((l) => l.code === 'RATE_LIMITED')).toEqual([expect.objectContaining({ level: LEVEL.warn, path: '/console/sign-in/local' })]);
  });

  it.each([
    ['NOT_A_SERVER_MANAGER', 403],
    ['CSRF_TOKEN_INVALID', 403],
    ['CROSS_ORIGIN_REQUEST', 403],
  ])('logs %s at warn with the signed-in user and the address', async (code, status) => {
    const guild = await managedGuild(database.db);
    const address = `192.0.2.${20 + ['NOT_A_SERVER_MANAGER', 'CSRF_TOKEN_INVALID', 'CROSS_ORIGIN_REQUEST'].indexOf(code)}`;
    const { post, client } = clientAt(address);
    const userId = code === 'NOT_A_SERVER_MANAGER' ? guild.memberId : guild.managerId;
    await post('/console/sign-in/local', { userId });
    await client.get('/console');
    const keys = `/console/servers/${guild.id}/keys`;
    const res =
      code === 'NOT_A_SERVER_MANAGER'
        ? await post(keys, { name: 'k', scopes: 'guild:read' })
        : code === 'CSRF_TOKEN_INVALID'
          ? await post(keys, { name: 'k', scopes: 'guild:read' }, { csrf: 'forged' })
          : await post(keys, { name: 'k', scopes: 'guild:read' }, { headers: { Origin: 'https://evil.example' } });
    expect(res.status).toBe(status);
    expect(errorCodeOf(res)).toBe(code);
    const lines = linesFor('console request refused', 'clientAddress', address);
    expect(lines).toEqual([expect.objectContaining({ level: LEVEL.warn, code, userId, method: 'POST', path: keys })]);
    expect(JSON.stringify(lines)).not.toContain(client.state.csrf);
  });
});
