import { describe, expect, it } from 'vitest';
import { createKeysActivities } from '../../activities/keys.js';
import { insertSession } from '../../db/console/sessions.js';
import { FLASH_LIFETIME_MS, keepFlash, takeFlashValue } from '../../src/console/flash.js';
import { FORM_TOKEN_LIFETIME_MS, issueFormToken, submitFormOnce } from '../../src/console/formTokens.js';
import { ConsoleRefusal } from '../../src/console/errors.js';
import { hashToken, newToken } from '../../src/console/tokens.js';
import { fixedClock } from '../../src/core/clock.js';
import { useTestDatabase } from '../harness/database.js';

const database = useTestDatabase();
const start = new Date('2026-06-01T12:00:00.000Z');

/** A live session row (the form and flash rows hang off it) and its raw token. */
async function session(clock = fixedClock(start)) {
  const token = newToken();
  const now = clock.now();
  await insertSession(database.db, hashToken(token), { userId: '1200000000000000001', userName: 'u', guildIds: null, createdAt: now, lastSeenAt: now, expiresAt: new Date(now.getTime() + 12 * 3_600_000) });
  return { token, clock, deps: { db: database.db, clock } };
}

const refusalOf = (promise: Promise<unknown>) => promise.then(() => undefined, (err: unknown) => (err instanceof ConsoleRefusal ? err.code : err));
const submissions = () => database.db.selectFrom('console_form_submissions').selectAll().execute();

describe('one-time form tokens', () => {
  it('runs the change once; the same token again gets the first answer without running it', async () => {
    const { token, deps } = await session();
    const form = { sessionToken: token, action: '/console/a', token: issueFormToken(token, '/console/a', start) };
    let runs = 0;
    const change = async () => `/console/result/${++runs}`;
    expect(await submitFormOnce(deps, form, change)).toBe('/console/result/1');
    expect(await submitFormOnce(deps, form, change)).toBe('/console/result/1');
    expect(runs).toBe(1);
  });

  it('makes a second POST sent while the first is under way wait for it, and answer its page', async () => {
    const { token, deps } = await session();
    const form = { sessionToken: token, action: '/console/a', token: issueFormToken(token, '/console/a', start) };
    let finish!: (location: string) => void;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const first = submitFormOnce(deps, form, () => {
      started();
      return new Promise<string>((resolve) => (finish = resolve));
    });
    await running;
    let secondRan = false;
    const second = submitFormOnce(deps, form, async () => {
      secondRan = true;
      return '/console/second';
    });
    finish('/console/first');
    expect(await Promise.all([first, second])).toEqual(['/console/first', '/console/first']);
    expect(secondRan).toBe(false);
  });

  it('refuses 409 FORM_STILL_SENDING when the first POST is still under way after the wait', async () => {
    const { token, deps } = await session();
    const form = { sessionToken: token, action: '/console/a', token: issueFormToken(token, '/console/a', start) };
    let finish!: (location: string) => void;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const first = submitFormOnce(deps, form, () => {
      started();
      return new Promise<string>((resolve) => (finish = resolve));
    });
    await running;
    expect(await refusalOf(submitFormOnce({ ...deps, waitMs: 0 }, form, async () => '/console/second'))).toBe('FORM_STILL_SENDING');
    finish('/console/first');
    expect(await first).toBe('/console/first');
  });

  it('gives the token back when the change fails, so the same form can be sent again', async () => {
    const { token, deps } = await session();
    const form = { sessionToken: token, action: '/console/a', token: issueFormToken(token, '/console/a', start) };
    const failure = new Error('the database is away');
    await expect(submitFormOnce(deps, form, () => Promise.reject(failure))).rejects.toBe(failure);
    expect(await submitFormOnce(deps, form, async () => '/console/done')).toBe('/console/done');
  });

  it.each([
    ['missing', (t: string) => ''],
    ['malformed', () => 'not-a-token'],
    ['of another form', (t: string) => issueFormToken(t, '/console/b', start)],
    ['of another session', () => issueFormToken(newToken(), '/console/a', start)],
    ['altered (its expiry moved)', (t: string) => issueFormToken(t, '/console/a', start).replace(/\.(\d+)\./, (_, e: string) => `.${Number(e) + 3600}.`)],
    ['expired', (t: string) => issueFormToken(t, '/console/a', new Date(start.getTime() - FORM_TOKEN_LIFETIME_MS))],
  ])('refuses a token %s with FORM_TOKEN_INVALID, running nothing and storing nothing', async (_, tokenOf) => {
    const { token, deps } = await session();
    const before = (await submissions()).length;
    let ran = false;
    const form = { sessionToken: token, action: '/console/a', token: tokenOf(token) };
    expect(await refusalOf(submitFormOnce(deps, form, async () => ((ran = true), '/x')))).toBe('FORM_TOKEN_INVALID');
    expect(ran).toBe(false);
    expect((await submissions()).length).toBe(before);
  });

  it('is still accepted a moment before its expiry', async () => {
    const { token, deps } = await session(fixedClock(new Date(start.getTime() + FORM_TOKEN_LIFETIME_MS - 1_000)));
    const form = { sessionToken: token, action: '/console/a', token: issueFormToken(token, '/console/a', start) };
    expect(await submitFormOnce(deps, form, async () => '/console/ok')).toBe('/console/ok');
  });

  it('ends with its session: the purge of an ended session deletes its taken tokens and flashes', async () => {
    const clock = fixedClock(start);
    const { token, deps } = await session(clock);
    await submitFormOnce(deps, { sessionToken: token, action: '/console/a', token: issueFormToken(token, '/console/a', start) }, async () => '/console/r');
    await keepFlash(deps, token, '/console/r', { secret: 's' });
    const mine = (table: 'console_form_submissions' | 'console_flashes') =>
      database.db.selectFrom(table).select('session_hash').where('session_hash', '=', hashToken(token)).execute();
    expect((await mine('console_form_submissions')).length).toBe(1);
    await createKeysActivities({ db: database.db, clock: fixedClock(new Date(start.getTime() + 13 * 3_600_000)) } as never).purgeExpiredRecords();
    expect(await mine('console_form_submissions')).toEqual([]);
    expect(await mine('console_flashes')).toEqual([]);
  });
});

describe('flashes (a secret kept for the one page after a redirect)', () => {
  it('are sealed: the row holds neither the secret nor anything that opens it without the session token', async () => {
    const { token, deps } = await session();
    const secret = `svc_${newToken()}`;
    await keepFlash(deps, token, '/console/p', { secret });
    const [row] = await database.db.selectFrom('console_flashes').selectAll().where('session_hash', '=', hashToken(token)).execute();
    const stored = Buffer.concat([row!.iv, row!.sealed, Buffer.from(row!.path)]);
    expect(stored.includes(Buffer.from(secret))).toBe(false);
    expect(stored.includes(Buffer.from(secret.slice(4, 24)))).toBe(false);
    expect(row!.expires_at.getTime() - start.getTime()).toBe(FLASH_LIFETIME_MS);
    expect(await takeFlashValue(deps, token, '/console/p')).toEqual({ secret });
  });

  it('are read once, only by their session and page, and not after their lifetime', async () => {
    const clock = fixedClock(start);
    const { token, deps } = await session(clock);
    const other = await session(clock);
    await keepFlash(deps, token, '/console/p', { secret: 'one' });
    expect(await takeFlashValue(other.deps, other.token, '/console/p')).toBeUndefined();
    expect(await takeFlashValue(deps, token, '/console/q')).toBeUndefined();
    expect(await takeFlashValue(deps, token, '/console/p')).toEqual({ secret: 'one' });
    expect(await takeFlashValue(deps, token, '/console/p')).toBeUndefined();

    await keepFlash(deps, token, '/console/p', { secret: 'two' });
    clock.advance(FLASH_LIFETIME_MS);
    expect(await takeFlashValue(deps, token, '/console/p')).toBeUndefined();
    expect(await database.db.selectFrom('console_flashes').select('path').where('session_hash', '=', hashToken(token)).execute()).toEqual([]);
  });

  it('a flash whose ciphertext was altered opens as nothing', async () => {
    const { token, deps } = await session();
    await keepFlash(deps, token, '/console/p', { secret: 'three' });
    const [row] = await database.db.selectFrom('console_flashes').select('sealed').where('session_hash', '=', hashToken(token)).execute();
    row!.sealed[0] = row!.sealed[0]! ^ 1;
    await database.db.updateTable('console_flashes').set({ sealed: row!.sealed }).where('session_hash', '=', hashToken(token)).execute();
    expect(await takeFlashValue(deps, token, '/console/p')).toBeUndefined();
  });
});
