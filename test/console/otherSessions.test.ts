import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/core/clock.js';
import { captureLogs, LEVEL } from '../harness/capturedLogs.js';
import { useTestDatabase } from '../harness/database.js';
import { useTestApp } from '../harness/testApp.js';
import { consoleClient, errorCodeOf, managedGuild } from './consoleClient.js';

const database = useTestDatabase();
const clock = fixedClock(new Date('2026-11-28T12:00:00.000Z'));
const logs = captureLogs();
const app = useTestApp(() => database.db, { clock, env: { CONSOLE_SIGN_IN_LIMIT: '1000' }, deps: { logger: logs.logger } });

const sessionsOf = async (userId: string) => (await database.db.selectFrom('console_sessions').select('user_id').where('user_id', '=', userId).execute()).length;
const otherSessionsShown = (html: string) => /data-other-sessions="(\d+)"/.exec(html)?.[1];

async function browserOf(userId: string) {
  const client = consoleClient(app.baseUrl);
  await client.signIn(userId);
  return client;
}

describe('"Sign out other sessions" on the server list', () => {
  it("ends the user's sessions in every other browser, keeps this one and other users', and then shows none", async () => {
    const guild = await managedGuild(database.db);
    const [here, laptop, phone] = [await browserOf(guild.managerId), await browserOf(guild.managerId), await browserOf(guild.managerId)];
    const colleague = await browserOf(guild.ownerId);
    const page = await here.get('/console');
    expect(otherSessionsShown(page.text)).toBe('2');
    expect(page.text).toContain('You are also signed in in 2 other browsers.');

    const res = await here.post('/console/sign-out/others');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/console');
    const after = await here.get('/console');
    expect(after.status).toBe(200);
    expect(otherSessionsShown(after.text)).toBe('0');
    for (const gone of [laptop, phone]) expect((await gone.get('/console')).headers.location).toBe('/console/sign-in');
    expect((await colleague.get('/console')).status).toBe(200);
    expect(await sessionsOf(guild.managerId)).toBe(1);
    expect(logs.matching('console sign-out of other sessions').filter((l) => l.userId === guild.managerId)).toEqual([
      expect.objectContaining({ level: LEVEL.info, ended: 2, clientAddress: '127.0.0.1' }),
    ]);
  });

  it('counts only sessions still live: one idle past 30 minutes is not another browser', async () => {
    clock.set(new Date('2026-11-28T13:00:00.000Z'));
    const guild = await managedGuild(database.db);
    await browserOf(guild.managerId);
    clock.advance(20 * 60_000);
    const here = await browserOf(guild.managerId);
    await browserOf(guild.managerId);
    clock.advance(15 * 60_000);
    expect(otherSessionsShown((await here.get('/console')).text)).toBe('1');
  });

  it.each([
    ['without the CSRF token', 403, 'CSRF_TOKEN_INVALID'],
    ['from another origin', 403, 'CROSS_ORIGIN_REQUEST'],
    ['without a session', 401, 'SIGN_IN_REQUIRED'],
  ])('refuses the request %s (%i %s) and ends nothing', async (kind, status, code) => {
    const guild = await managedGuild(database.db);
    const here = await browserOf(guild.managerId);
    const other = await browserOf(guild.managerId);
    const res =
      kind === 'without a session'
        ? await consoleClient(app.baseUrl).post('/console/sign-out/others', {}, { csrf: null })
        : kind === 'from another origin'
          ? await here.post('/console/sign-out/others', {}, { headers: { Origin: 'https://evil.example' } })
          : await here.post('/console/sign-out/others', {}, { csrf: null });
    expect(res.status).toBe(status);
    expect(errorCodeOf(res)).toBe(code);
    expect(await sessionsOf(guild.managerId)).toBe(2);
    expect((await other.get('/console')).status).toBe(200);
  });
});
