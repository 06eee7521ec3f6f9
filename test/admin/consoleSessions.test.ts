import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/core/clock.js';
import { consoleClient, managedGuild } from '../console/consoleClient.js';
import { useTestDatabase } from '../harness/database.js';
import { useTestApp } from '../harness/testApp.js';
import { cli } from './cli.js';

const database = useTestDatabase();
const clock = fixedClock(new Date('2026-11-28T11:00:00Z'));
const app = useTestApp(() => database.db, { clock, env: { CONSOLE_SIGN_IN_LIMIT: '1000' } });
const admin = cli(() => database.db, clock);

const sessionCount = async () => (await database.db.selectFrom('console_sessions').select('user_id').execute()).length;

/** A browser signed in as `userId`; `signedIn()` says whether its session still opens the server list. */
async function browserOf(userId: string) {
  const client = consoleClient(app.baseUrl);
  await client.signIn(userId);
  return { signedIn: async () => (await client.get('/console')).status === 200 };
}

describe('console sessions end', () => {
  it("--user ends every session of that user, in every browser, and no one else's", async () => {
    const guild = await managedGuild(database.db);
    const [laptop, phone, colleague] = [await browserOf(guild.managerId), await browserOf(guild.managerId), await browserOf(guild.ownerId)];
    const res = await admin('console', 'sessions', 'end', '--user', guild.managerId);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`Ended 2 console sessions of user ${guild.managerId}.`);
    expect([await laptop.signedIn(), await phone.signedIn(), await colleague.signedIn()]).toEqual([false, false, true]);
    expect((await admin('console', 'sessions', 'end', '--user', guild.managerId, '--json')).json()).toEqual({ ended: 0, userId: guild.managerId });
  });

  it("--all ends everyone's sessions and prints how many", async () => {
    const guild = await managedGuild(database.db);
    const browsers = [await browserOf(guild.managerId), await browserOf(guild.ownerId)];
    const before = await sessionCount();
    const res = await admin('console', 'sessions', 'end', '--all', '--json');
    expect(res.code).toBe(0);
    expect(res.json()).toEqual({ ended: before, userId: null });
    expect(await sessionCount()).toBe(0);
    for (const b of browsers) expect(await b.signedIn()).toBe(false);
    expect((await admin('console', 'sessions', 'end', '--all')).stdout).toBe('Ended 0 console sessions (every user).');
  });

  it.each([
    ['neither --user nor --all', [], 'MISSING_FLAG'],
    ['both --user and --all', ['--user', '1200000000000000001', '--all'], 'MISSING_FLAG'],
    ['a --user that is not a user id', ['--user', 'alice'], 'INVALID_ARGUMENT'],
    ['a stray argument', ['now'], 'UNEXPECTED_ARGUMENT'],
  ])('refuses %s with exit code 2 and ends nothing', async (_, args, code) => {
    const guild = await managedGuild(database.db);
    const browser = await browserOf(guild.managerId);
    const before = await sessionCount();
    const res = await admin('console', 'sessions', 'end', ...args, '--json');
    expect(res.code).toBe(2);
    expect(res.error().error).toBe(code);
    expect(await sessionCount()).toBe(before);
    expect(await browser.signedIn()).toBe(true);
  });

  it('is listed in the help of the console group', async () => {
    const res = await admin('console', '--help');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('console sessions end [--user ID] [--all] [--json]');
    expect((await admin('console', 'sessions')).code).toBe(2);
  });
});
