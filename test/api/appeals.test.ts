import { afterAll, describe, expect, it } from 'vitest';
import { addAppealMessage, findAppealRow, type AppealAnswer } from '../../db/appeals.js';
import { saveAppealSettings } from '../../db/appealSettings.js';
import { upsertPlatformChannels } from '../../db/platformLocal.js';
import { banPlatformUser, findPlatformBan } from '../../db/platformModeration.js';
import { fileAppeal } from '../../src/appeals/fileAppeal.js';
import { fixedClock } from '../../src/clock.js';
import { APPEAL_STATUSES, type AppealStatus } from '../../src/contract/appeals.js';
import { FEATURES, type Feature } from '../../src/domain/features.js';
import { SCOPES, type Scope } from '../../src/domain/scopes.js';
import { useTestDatabase } from '../harness/database.js';
import { eventually } from '../harness/eventually.js';
import { bearer, createTestGuild, createTestKey, snowflake, type TestGuild } from '../harness/fixtures.js';
import type { TestResponse } from '../harness/httpClient.js';
import { countWrites } from '../harness/rows.js';
import { testGateway, useTestWorker } from '../harness/temporal.js';
import { useTestApp } from '../harness/testApp.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const DAY_MS = 86_400_000;

const database = useTestDatabase();
const db = () => database.db;
const clock = fixedClock(NOW);
// Decisions start their workflow on a task queue nobody polls: the HTTP layer is what is under test
// here, so `applying` stays true and no effect of the decision changes rows behind the test's back.
const gateway = testGateway();
const app = useTestApp(db, { clock, deps: { temporal: gateway } });
afterAll(() => gateway.client.connection.close());
// One app whose decisions a real worker applies (test/workflows/appealDecision.test.ts covers the effects).
const liveGateway = testGateway();
useTestWorker(db, liveGateway);
const liveApp = useTestApp(db, { deps: { temporal: liveGateway } });

type Verb = 'approve' | 'reject';
const VERBS: Verb[] = ['approve', 'reject'];
const DECIDED: Record<Verb, 'approved' | 'rejected'> = { approve: 'approved', reject: 'rejected' };
const CLOSED_STATUSES = ['approved', 'rejected', 'closed'] as const;

async function setup(options: { features?: Feature[]; scopes?: Scope[] } = {}) {
  const guild = await createTestGuild(db(), { features: options.features ?? [...FEATURES] });
  const created = await createTestKey(db(), guild, { scopes: options.scopes ?? ['appeals:read', 'appeals:write'], name: 'appeals key' });
  return { guild, key: created.key, keyId: created.id };
}

let tick = 0;

interface SeedOptions {
  status?: AppealStatus;
  userId?: string;
  userTag?: string | null;
  banCaseNumber?: number | null;
  banReason?: string | null;
  answers?: AppealAnswer[];
  at?: Date;
}

/** Files an appeal as the bot does (appeal row + `appeals.submitted`), then moves it to `status`. */
async function seedAppeal(guild: TestGuild, options: SeedOptions = {}) {
  const userId = options.userId ?? snowflake();
  const at = options.at ?? new Date(NOW.getTime() - DAY_MS + ++tick * 1000);
  const { number } = await db()
    .transaction()
    .execute((trx) =>
      fileAppeal(trx, {
        guildId: guild.id,
        userId,
        userTag: options.userTag ?? null,
        banCaseNumber: options.banCaseNumber ?? null,
        banReason: options.banReason ?? null,
        answers: options.answers ?? [],
        at,
      }),
    );
  const status = options.status ?? 'open';
  if (status !== 'open') {
    const decided = status === 'approved' || status === 'rejected' || status === 'closed';
    await db()
      .updateTable('appeals')
      .set({ status, ...(decided ? { decided_at: at, reason: `earlier ${status}` } : {}) })
      .where('guild_id', '=', guild.id)
      .where('number', '=', number)
      .execute();
  }
  return { number, userId, at };
}

async function seedMany(guild: TestGuild, statuses: AppealStatus[]) {
  const numbers: number[] = [];
  for (const status of statuses) numbers.push((await seedAppeal(guild, { status })).number);
  return numbers;
}

const list = (guild: TestGuild, key: string, query = '') => app.http('GET', `/guilds/${guild.id}/appeals${query ? `?${query}` : ''}`, { headers: bearer(key) });
const getAppeal = (guild: TestGuild, key: string, number: number | string) =>
  app.http('GET', `/guilds/${guild.id}/appeals/${number}`, { headers: bearer(key) });
const decide = (guild: TestGuild, key: string, number: number | string, verb: Verb, options: { body?: unknown; idempotencyKey?: string } = {}) =>
  app.http('POST', `/guilds/${guild.id}/appeals/${number}/${verb}`, {
    headers: { ...bearer(key), ...(options.idempotencyKey === undefined ? {} : { 'Idempotency-Key': options.idempotencyKey }) },
    body: options.body,
  });

const numbersOf = (res: TestResponse): number[] => res.body.items.map((a: { number: number }) => a.number);
const desc = (numbers: number[]) => [...numbers].sort((a, b) => b - a);

/** Everything a decision writes: the appeal rows, their conversation, events, audit rows, Idempotency-Key records. */
async function snapshot(guildId: string) {
  const appeals = await db()
    .selectFrom('appeals')
    .select(['number', 'status', 'reason', 'decided_by', 'decided_at', 'decided_with_api_key_id', 'applying', 'failed_action', 'reappeal_after', 'last_activity_at'])
    .where('guild_id', '=', guildId)
    .orderBy('number')
    .execute();
  const messages = await db()
    .selectFrom('appeal_messages')
    .select(['id', 'appeal_number', 'author', 'author_id', 'text', 'internal'])
    .where('guild_id', '=', guildId)
    .orderBy('id')
    .execute();
  return { appeals, messages, writes: await countWrites(db(), guildId) };
}

/** Runs `act` (which asserts the refusal) and asserts that it changed nothing. */
async function refused(guildId: string, act: () => Promise<void>) {
  const before = await snapshot(guildId);
  await act();
  expect(await snapshot(guildId)).toEqual(before);
}

const auditRows = (guildId: string) =>
  db().selectFrom('audit_log').selectAll().where('guild_id', '=', guildId).where('action', 'like', 'appeals.%').orderBy('id').execute();
const staffMessages = (guildId: string, number: number) =>
  db()
    .selectFrom('appeal_messages')
    .select(['author', 'author_id', 'text', 'internal', 'created_at'])
    .where('guild_id', '=', guildId)
    .where('appeal_number', '=', number)
    .where('author', '=', 'staff')
    .where('internal', '=', false)
    .orderBy('id')
    .execute();

/** Follows nextCursor from the first page to the end; the pages as returned. */
async function allPages(guild: TestGuild, key: string, query: string) {
  const pages: Array<{ numbers: number[]; nextCursor: string | null }> = [];
  let before: string | null = null;
  do {
    const res = await list(guild, key, `${query}${before === null ? '' : `&before=${before}`}`);
    expect(res.status).toBe(200);
    pages.push({ numbers: numbersOf(res), nextCursor: res.body.nextCursor });
    before = res.body.nextCursor;
  } while (before !== null && pages.length < 100);
  return pages;
}

describe('GET /appeals', () => {
  it('lists open and question appeals by default, every status with all, one status when named; newest first', async () => {
    const { guild, key } = await setup();
    const statuses: AppealStatus[] = ['open', 'question', 'approved', 'rejected', 'closed', 'open', 'question', 'closed', 'rejected', 'approved'];
    const numbers = await seedMany(guild, statuses);
    const withStatus = (...wanted: AppealStatus[]) => desc(numbers.filter((_, i) => wanted.includes(statuses[i]!)));
    // Another server's appeals never show.
    const other = await setup();
    await seedMany(other.guild, ['open', 'question', 'approved']);

    const byDefault = await list(guild, key);
    expect(byDefault.status).toBe(200);
    expect(byDefault.body).toEqual({ items: expect.any(Array), nextCursor: null });
    expect(numbersOf(byDefault)).toEqual(withStatus('open', 'question'));
    expect(numbersOf(byDefault)).toEqual([7, 6, 2, 1]);
    expect(byDefault.body.items.map((a: { status: string }) => a.status)).toEqual(['question', 'open', 'question', 'open']);

    const all = await list(guild, key, 'status=all');
    expect(all.status).toBe(200);
    expect(numbersOf(all)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(all.body.nextCursor).toBeNull();

    const expected: Record<AppealStatus, AppealStatus[]> = {
      open: ['open', 'question'],
      question: ['question'],
      approved: ['approved'],
      rejected: ['rejected'],
      closed: ['closed'],
    };
    for (const status of APPEAL_STATUSES) {
      const res = await list(guild, key, `status=${status}`);
      expect(res.status, status).toBe(200);
      expect(numbersOf(res), status).toEqual(withStatus(...expected[status]));
      expect(res.body.items.every((a: { status: AppealStatus }) => expected[status].includes(a.status)), status).toBe(true);
      expect(res.body.nextCursor, status).toBeNull();
    }
  });

  it('returns list rows of the Appeal shape, without detail fields', async () => {
    const { guild, key } = await setup();
    const userId = snowflake();
    const at = new Date('2026-11-20T08:30:00.000Z');
    const { number } = await seedAppeal(guild, {
      userId,
      userTag: 'appellant',
      banCaseNumber: 12,
      banReason: 'spam',
      answers: [{ id: 'why', type: 'paragraph', label: 'Why?', value: 'Sorry.' }],
      at,
    });
    await addAppealMessage(db(), { guildId: guild.id, number, author: 'user', authorId: userId, text: 'hello', at });
    const res = await list(guild, key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [
        {
          number,
          userId,
          userTag: 'appellant',
          status: 'open',
          banCaseNumber: 12,
          claimedBy: null,
          decidedBy: null,
          decidedAt: null,
          reason: null,
          createdAt: at.toISOString(),
          lastActivityAt: at.toISOString(),
        },
      ],
      nextCursor: null,
    });
  });

  it('filters by userId, together with the status filter', async () => {
    const { guild, key } = await setup();
    const a = snowflake();
    const b = snowflake();
    const a1 = await seedAppeal(guild, { userId: a, status: 'rejected' });
    const b1 = await seedAppeal(guild, { userId: b });
    const a2 = await seedAppeal(guild, { userId: a, status: 'closed' });
    const a3 = await seedAppeal(guild, { userId: a, status: 'question' });
    const b2 = await seedAppeal(guild, { userId: b, status: 'approved' });

    const openOfA = await list(guild, key, `userId=${a}`);
    expect(openOfA.status).toBe(200);
    expect(numbersOf(openOfA)).toEqual([a3.number]);
    expect(numbersOf(await list(guild, key, `userId=${a}&status=all`))).toEqual([a3.number, a2.number, a1.number]);
    expect(numbersOf(await list(guild, key, `status=all&userId=${b}`))).toEqual([b2.number, b1.number]);
    expect(numbersOf(await list(guild, key, `userId=${b}&status=approved`))).toEqual([b2.number]);
    expect(numbersOf(await list(guild, key, `userId=${a}&status=approved`))).toEqual([]);
    const stranger = await list(guild, key, `userId=${snowflake()}&status=all`);
    expect(stranger.status).toBe(200);
    expect(stranger.body).toEqual({ items: [], nextCursor: null });
  });

  it('pages 25 by default; limit 1 to 100; before gives the older ones', async () => {
    const { guild, key } = await setup();
    await seedMany(guild, Array<AppealStatus>(30).fill('open'));
    const all = Array.from({ length: 30 }, (_, i) => 30 - i);

    const byDefault = await list(guild, key);
    expect(byDefault.status).toBe(200);
    expect(numbersOf(byDefault)).toEqual(all.slice(0, 25));
    expect(byDefault.body.nextCursor).toBe('6');
    const rest = await list(guild, key, `before=${byDefault.body.nextCursor}`);
    expect(numbersOf(rest)).toEqual([5, 4, 3, 2, 1]);
    expect(rest.body.nextCursor).toBeNull();

    const one = await list(guild, key, 'limit=1');
    expect(numbersOf(one)).toEqual([30]);
    expect(one.body.nextCursor).toBe('30');
    const max = await list(guild, key, 'limit=100');
    expect(numbersOf(max)).toEqual(all);
    expect(max.body.nextCursor).toBeNull();
    // A page that holds exactly the last appeals is the last page.
    const exact = await list(guild, key, 'limit=30');
    expect(numbersOf(exact)).toEqual(all);
    expect(exact.body.nextCursor).toBeNull();
    const exactTail = await list(guild, key, 'limit=5&before=6');
    expect(numbersOf(exactTail)).toEqual([5, 4, 3, 2, 1]);
    expect(exactTail.body.nextCursor).toBeNull();

    expect(numbersOf(await list(guild, key, 'before=1'))).toEqual([]);
    expect(numbersOf(await list(guild, key, 'before=999999999&limit=2'))).toEqual([30, 29]);
  });

  it.each([
    ['status=all', 7],
    ['status=all', 5],
    ['status=open', 3],
    ['status=open', 4],
    ['status=closed', 2],
  ])('pages through %s with limit %i without duplicates or gaps; the last page has no cursor', async (query, limit) => {
    const { guild, key } = await setup();
    const cycle: AppealStatus[] = ['open', 'approved', 'question', 'closed', 'rejected', 'open'];
    const statuses = Array.from({ length: 30 }, (_, i) => cycle[i % cycle.length]!);
    const numbers = await seedMany(guild, statuses);
    const status = query.split('=')[1] as AppealStatus | 'all';
    const wanted = desc(
      numbers.filter((_, i) => status === 'all' || statuses[i] === status || (status === 'open' && statuses[i] === 'question')),
    );

    const pages = await allPages(guild, key, `${query}&limit=${limit}`);
    expect(pages.flatMap((p) => p.numbers)).toEqual(wanted);
    expect(pages).toHaveLength(Math.ceil(wanted.length / limit));
    for (const page of pages.slice(0, -1)) {
      expect(page.numbers).toHaveLength(limit);
      expect(page.nextCursor).toBe(String(page.numbers.at(-1)));
    }
    expect(pages.at(-1)!.numbers.length).toBeGreaterThan(0);
    expect(pages.at(-1)!.nextCursor).toBeNull();
  });

  it.each([
    ['status=pending', 'status'],
    ['status=OPEN', 'status'],
    ['status=', 'status'],
    ['status=open&status=all', 'status'],
    ['userId=123', 'userId'],
    ['userId=not-a-snowflake', 'userId'],
    ['userId=123456789012345678901', 'userId'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=-5', 'limit'],
    ['limit=2.5', 'limit'],
    ['limit=abc', 'limit'],
    ['before=0', 'before'],
    ['before=-1', 'before'],
    ['before=1000000000', 'before'],
    ['before=1.5', 'before'],
    ['before=abc', 'before'],
  ])('answers 400 INVALID_REQUEST for %s', async (query, path) => {
    const { guild, key } = await setup();
    await seedAppeal(guild);
    const res = await list(guild, key, query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'INVALID_REQUEST',
      message: expect.any(String),
      issues: [{ location: 'query', path, message: expect.any(String) }],
    });
  });
});

describe('GET /appeals/{number}', () => {
  it('answers the AppealDetail with answers and the conversation, never internal staff notes', async () => {
    const { guild, key } = await setup();
    const userId = snowflake();
    const staffId = snowflake();
    const at = new Date('2026-11-21T10:00:00.000Z');
    const minute = (n: number) => new Date(at.getTime() + n * 60_000);
    const answers: AppealAnswer[] = [
      { id: 'why', type: 'paragraph', label: 'Why should we unban you?', value: 'I changed.' },
      { id: 'age', type: 'number', label: 'Account age (days)', value: 400 },
      { id: 'rules', type: 'checkbox', label: 'I read the rules', value: true },
      { id: 'links', type: 'list', label: 'Links', value: ['https://example.com/a'] },
    ];
    const { number } = await seedAppeal(guild, { userId, userTag: 'appellant', banCaseNumber: 4, banReason: 'spam links', answers, at });
    await addAppealMessage(db(), { guildId: guild.id, number, author: 'user', authorId: userId, text: 'Please unban me.', at: minute(1) });
    await addAppealMessage(db(), { guildId: guild.id, number, author: 'staff', authorId: staffId, text: 'Why the links?', at: minute(2) });
    await addAppealMessage(db(), {
      guildId: guild.id,
      number,
      author: 'staff',
      authorId: staffId,
      text: 'INTERNAL: banned twice before',
      internal: true,
      at: minute(3),
    });
    await addAppealMessage(db(), { guildId: guild.id, number, author: 'user', authorId: userId, text: 'It was a bot.', at: minute(4) });
    await db()
      .updateTable('appeals')
      .set({ status: 'question', claimed_by: staffId, last_activity_at: minute(4) })
      .where('guild_id', '=', guild.id)
      .where('number', '=', number)
      .execute();

    const res = await getAppeal(guild, key, number);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      number,
      userId,
      userTag: 'appellant',
      status: 'question',
      banCaseNumber: 4,
      claimedBy: staffId,
      decidedBy: null,
      decidedAt: null,
      reason: null,
      createdAt: at.toISOString(),
      lastActivityAt: minute(4).toISOString(),
      banReason: 'spam links',
      answers,
      messages: [
        { author: 'user', authorId: userId, text: 'Please unban me.', createdAt: minute(1).toISOString() },
        { author: 'staff', authorId: staffId, text: 'Why the links?', createdAt: minute(2).toISOString() },
        { author: 'user', authorId: userId, text: 'It was a bot.', createdAt: minute(4).toISOString() },
      ],
      applying: false,
      failedAction: null,
    });
    expect(res.text).not.toContain('INTERNAL');
  });

  it('answers 404 APPEAL_NOT_FOUND for an unknown number and for another server’s appeal', async () => {
    const { guild, key } = await setup();
    await seedAppeal(guild);
    const other = await setup();
    await seedMany(other.guild, ['open', 'open', 'open']);
    for (const number of [2, 3, 999_999_999]) {
      const res = await getAppeal(guild, key, number);
      expect(res.status, String(number)).toBe(404);
      expect(res.body).toEqual({ error: 'APPEAL_NOT_FOUND', message: expect.any(String) });
    }
    expect((await getAppeal(guild, key, 1)).status).toBe(200);
  });

  it.each(['abc', '0', '-1', '1.5', '1000000000'])('answers 400 INVALID_REQUEST for the number %s', async (number) => {
    const { guild, key } = await setup();
    await seedAppeal(guild);
    const res = await getAppeal(guild, key, number);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'INVALID_REQUEST',
      message: expect.any(String),
      issues: [{ location: 'path', path: 'number', message: expect.any(String) }],
    });
  });
});

describe('POST /appeals/{number}/approve and /reject', () => {
  it.each(VERBS)('%s: 202 AppealDetail decided at once, applying; reason kept as a staff message; audit row', async (verb) => {
    const { guild, key, keyId } = await setup();
    const userId = snowflake();
    const at = new Date('2026-11-21T09:00:00.000Z');
    const answers: AppealAnswer[] = [{ id: 'why', type: 'paragraph', label: 'Why?', value: 'I changed.' }];
    const { number } = await seedAppeal(guild, { userId, userTag: 'appellant', banCaseNumber: 3, banReason: 'spam', answers, at });
    await addAppealMessage(db(), { guildId: guild.id, number, author: 'user', authorId: userId, text: 'Please.', at });
    await addAppealMessage(db(), { guildId: guild.id, number, author: 'staff', authorId: snowflake(), text: 'internal note', internal: true, at });
    const before = await countWrites(db(), guild.id);

    const res = await decide(guild, key, number, verb, { body: { reason: 'Decided by the team.' } });
    expect(res.status).toBe(202);
    const expected = {
      number,
      userId,
      userTag: 'appellant',
      status: DECIDED[verb],
      banCaseNumber: 3,
      claimedBy: null,
      decidedBy: null,
      decidedAt: NOW.toISOString(),
      reason: 'Decided by the team.',
      createdAt: at.toISOString(),
      lastActivityAt: NOW.toISOString(),
      banReason: 'spam',
      answers,
      messages: [
        { author: 'user', authorId: userId, text: 'Please.', createdAt: at.toISOString() },
        { author: 'staff', authorId: null, text: 'Decided by the team.', createdAt: NOW.toISOString() },
      ],
      applying: true,
      failedAction: null,
    };
    expect(res.body).toEqual(expected);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    // What a GET shows afterwards is what the 202 said (no worker applies it here).
    expect((await getAppeal(guild, key, number)).body).toEqual(expected);

    const row = await findAppealRow(db(), guild.id, number);
    expect(row).toMatchObject({
      status: DECIDED[verb],
      decided_by: null,
      decided_at: NOW,
      decided_with_api_key_id: keyId,
      reason: 'Decided by the team.',
      applying: true,
      failed_action: null,
      reappeal_after: verb === 'reject' ? new Date(NOW.getTime() + 30 * DAY_MS) : null,
    });
    expect(await staffMessages(guild.id, number)).toEqual([
      { author: 'staff', author_id: null, text: 'Decided by the team.', internal: false, created_at: NOW },
    ]);
    const audit = await auditRows(guild.id);
    expect(audit).toEqual([
      expect.objectContaining({
        actor_type: 'api_key',
        actor_id: guild.ownerId,
        api_key_id: keyId,
        action: `appeals.${verb}`,
        target_type: 'appeal',
        target_id: String(number),
        request_id: res.headers['x-request-id'],
        data: { userId, previousStatus: 'open', reason: 'Decided by the team.' },
      }),
    ]);
    // One audit row; no event (appeal decisions emit none) and no Idempotency-Key record without the header.
    expect(await countWrites(db(), guild.id)).toEqual({ ...before, audit: before.audit + 1 });
  });

  it.each(VERBS)('%s decides a question appeal too', async (verb) => {
    const { guild, key } = await setup();
    const { number, userId } = await seedAppeal(guild, { status: 'question' });
    const res = await decide(guild, key, number, verb);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ number, status: DECIDED[verb], applying: true, reason: null, decidedAt: NOW.toISOString() });
    const [audit] = await auditRows(guild.id);
    expect(audit!.data).toEqual({ userId, previousStatus: 'question', reason: null });
  });

  it.each([
    ['approve', 'no body', undefined],
    ['approve', 'an empty object', {}],
    ['approve', 'a null reason', { reason: null }],
    ['reject', 'no body', undefined],
    ['reject', 'an empty object', {}],
    ['reject', 'a null reason', { reason: null }],
  ] as const)('%s with %s: 202 without a reason and without a staff message', async (verb, _label, body) => {
    const { guild, key } = await setup();
    const { number, userId } = await seedAppeal(guild);
    await addAppealMessage(db(), { guildId: guild.id, number, author: 'user', authorId: userId, text: 'Hi.', at: NOW });
    const res = await decide(guild, key, number, verb, { body });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ number, status: DECIDED[verb], reason: null, applying: true });
    expect(res.body.messages).toEqual([{ author: 'user', authorId: userId, text: 'Hi.', createdAt: NOW.toISOString() }]);
    expect(await staffMessages(guild.id, number)).toEqual([]);
    expect((await findAppealRow(db(), guild.id, number))!.reason).toBeNull();
  });

  it.each(VERBS)('%s accepts a reason of exactly 1000 characters', async (verb) => {
    const { guild, key } = await setup();
    const { number } = await seedAppeal(guild);
    const reason = 'r'.repeat(1000);
    const res = await decide(guild, key, number, verb, { body: { reason } });
    expect(res.status).toBe(202);
    expect(res.body.reason).toBe(reason);
    expect((await staffMessages(guild.id, number)).map((m) => m.text)).toEqual([reason]);
  });

  it('reject: reappeal_after follows the server’s appeal settings', async () => {
    const { guild, key } = await setup();
    await saveAppealSettings(db(), guild.id, { rejectionDm: false, reappealCooldownSeconds: 3600, inviteChannelId: null });
    const { number } = await seedAppeal(guild);
    expect((await decide(guild, key, number, 'reject')).status).toBe(202);
    expect((await findAppealRow(db(), guild.id, number))!.reappeal_after).toEqual(new Date(NOW.getTime() + 3600_000));

    await saveAppealSettings(db(), guild.id, { rejectionDm: true, reappealCooldownSeconds: 0, inviteChannelId: null });
    const second = await seedAppeal(guild);
    expect((await decide(guild, key, second.number, 'reject')).status).toBe(202);
    expect((await findAppealRow(db(), guild.id, second.number))!.reappeal_after).toEqual(NOW);
  });

  const BAD_BODIES: Array<[string, unknown, string]> = [
    ['a reason of 1001 characters', { reason: 'r'.repeat(1001) }, 'reason'],
    ['an empty reason', { reason: '' }, 'reason'],
    ['a numeric reason', { reason: 5 }, 'reason'],
    ['a boolean reason', { reason: true }, 'reason'],
    ['an array reason', { reason: ['no'] }, 'reason'],
    ['an object reason', { reason: { text: 'no' } }, 'reason'],
    ['an unknown field', { reason: 'ok', notify: false }, ''],
    ['an array body', '[]', ''],
    ['a string body', '"approve"', ''],
    ['a null body', 'null', ''],
    ['a number body', '42', ''],
  ];
  describe.each(VERBS)('%s body validation', (verb) => {
    it.each(BAD_BODIES)('400 INVALID_REQUEST for %s; nothing changes', async (_label, body, path) => {
      const { guild, key } = await setup();
      const { number } = await seedAppeal(guild);
      await refused(guild.id, async () => {
        const res = await decide(guild, key, number, verb, { body, idempotencyKey: `bad-${verb}` });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          error: 'INVALID_REQUEST',
          message: expect.any(String),
          issues: [expect.objectContaining({ location: 'body', path, message: expect.any(String) })],
        });
      });
    });

    it('400 INVALID_JSON for unparsable JSON and 415 for another content type; nothing changes', async () => {
      const { guild, key } = await setup();
      const { number } = await seedAppeal(guild);
      await refused(guild.id, async () => {
        const broken = await decide(guild, key, number, verb, { body: '{"reason": ' });
        expect(broken.status).toBe(400);
        expect(broken.body).toEqual({ error: 'INVALID_JSON', message: expect.any(String) });
        const text = await app.http('POST', `/guilds/${guild.id}/appeals/${number}/${verb}`, {
          headers: { ...bearer(key), 'Content-Type': 'text/plain' },
          body: 'reason=no',
        });
        expect(text.status).toBe(415);
        expect(text.body).toEqual({ error: 'UNSUPPORTED_MEDIA_TYPE', message: expect.any(String) });
      });
    });

    it('404 APPEAL_NOT_FOUND for an unknown number or another server’s appeal; 400 for a malformed one; nothing changes', async () => {
      const { guild, key } = await setup();
      await seedAppeal(guild);
      const other = await setup();
      const foreign = await seedMany(other.guild, ['open', 'open']);
      await refused(other.guild.id, () =>
        refused(guild.id, async () => {
          for (const number of [foreign[1]!, 999_999_999]) {
            const res = await decide(guild, key, number, verb, { body: { reason: 'x' }, idempotencyKey: 'missing' });
            expect(res.status, String(number)).toBe(404);
            expect(res.body).toEqual({ error: 'APPEAL_NOT_FOUND', message: expect.any(String) });
          }
          for (const number of ['abc', '0', '1.5', '1000000000']) {
            const res = await decide(guild, key, number, verb, { body: { reason: 'x' } });
            expect(res.status, number).toBe(400);
            expect(res.body).toEqual({
              error: 'INVALID_REQUEST',
              message: expect.any(String),
              issues: [{ location: 'path', path: 'number', message: expect.any(String) }],
            });
          }
        }),
      );
    });
  });
});

describe('deciding an appeal that is not open', () => {
  const cases = CLOSED_STATUSES.flatMap((status) => VERBS.map((verb) => [status, verb] as const));
  it.each(cases)('a %s appeal: %s answers 409 APPEAL_NOT_OPEN with its status; nothing changes', async (status, verb) => {
    const { guild, key } = await setup();
    const { number } = await seedAppeal(guild, { status });
    await refused(guild.id, async () => {
      for (const body of [undefined, { reason: 'Again.' }]) {
        const res = await decide(guild, key, number, verb, { body, idempotencyKey: `late-${status}` });
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ error: 'APPEAL_NOT_OPEN', message: expect.any(String), status });
      }
    });
    expect((await getAppeal(guild, key, number)).body).toMatchObject({ status, reason: `earlier ${status}`, applying: false });
  });

  it.each(VERBS)('after %s through the API, both decisions answer 409 with the new status', async (verb) => {
    const { guild, key } = await setup();
    const { number } = await seedAppeal(guild);
    const first = await decide(guild, key, number, verb, { body: { reason: 'First.' } });
    expect(first.status).toBe(202);
    await refused(guild.id, async () => {
      for (const again of VERBS) {
        const res = await decide(guild, key, number, again, { body: { reason: 'Second.' } });
        expect(res.status, again).toBe(409);
        expect(res.body).toEqual({ error: 'APPEAL_NOT_OPEN', message: expect.any(String), status: DECIDED[verb] });
      }
    });
    expect((await getAppeal(guild, key, number)).body).toEqual(first.body);
  });

  it('approve and reject sent at once: one 202, one 409 APPEAL_NOT_OPEN; one decision recorded', async () => {
    const { guild, key } = await setup();
    const numbers = await seedMany(guild, ['open', 'question', 'open', 'open', 'question']);
    const auditBefore = (await countWrites(db(), guild.id)).audit;
    const results = await Promise.all(
      numbers.map((number) =>
        Promise.all([
          decide(guild, key, number, 'approve', { body: { reason: `approve ${number}` } }),
          decide(guild, key, number, 'reject', { body: { reason: `reject ${number}` } }),
        ]),
      ),
    );
    for (const [i, [approve, reject]] of results.entries()) {
      const number = numbers[i]!;
      expect([approve.status, reject.status].sort(), String(number)).toEqual([202, 409]);
      const [winner, loser] = approve.status === 202 ? [approve, reject] : [reject, approve];
      const verb: Verb = winner === approve ? 'approve' : 'reject';
      expect(winner.body).toMatchObject({ number, status: DECIDED[verb], reason: `${verb} ${number}`, applying: true });
      expect(loser.body).toEqual({ error: 'APPEAL_NOT_OPEN', message: expect.any(String), status: DECIDED[verb] });
      const row = await findAppealRow(db(), guild.id, number);
      expect(row).toMatchObject({ status: DECIDED[verb], reason: `${verb} ${number}` });
      expect((await staffMessages(guild.id, number)).map((m) => m.text)).toEqual([`${verb} ${number}`]);
      const audit = (await auditRows(guild.id)).filter((a) => a.target_id === String(number));
      expect(audit.map((a) => a.action)).toEqual([`appeals.${verb}`]);
    }
    expect((await countWrites(db(), guild.id)).audit).toBe(auditBefore + numbers.length);
  });
});

describe('Idempotency-Key on approve and reject', () => {
  it.each(VERBS)('%s: a replay answers the stored 202 with Idempotent-Replayed and changes nothing, also after the decision', async (verb) => {
    const { guild, key } = await setup();
    const { number } = await seedAppeal(guild);
    const send = () => decide(guild, key, number, verb, { body: { reason: 'Once.' }, idempotencyKey: `decide-${number}` });
    const first = await send();
    expect(first.status).toBe(202);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect((await countWrites(db(), guild.id)).idempotency).toBe(1);

    await refused(guild.id, async () => {
      const again = await send();
      expect(again.status).toBe(202);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      // The appeal is decided: without the key a retry is a new request and is refused.
      const fresh = await decide(guild, key, number, verb, { body: { reason: 'Once.' } });
      expect(fresh.status).toBe(409);
      expect(fresh.body).toEqual({ error: 'APPEAL_NOT_OPEN', message: expect.any(String), status: DECIDED[verb] });
    });

    // The decision was applied meanwhile: the replay still answers the stored response, not a 409.
    await db().updateTable('appeals').set({ applying: false }).where('guild_id', '=', guild.id).where('number', '=', number).execute();
    await refused(guild.id, async () => {
      const later = await send();
      expect(later.status).toBe(202);
      expect(later.headers['idempotent-replayed']).toBe('true');
      expect(later.body).toEqual(first.body);
    });
    expect((await auditRows(guild.id)).map((a) => a.action)).toEqual([`appeals.${verb}`]);
    expect(await staffMessages(guild.id, number)).toHaveLength(1);
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED for the same key with another body, verb or appeal; nothing changes', async () => {
    const { guild, key } = await setup();
    const [number, other] = await seedMany(guild, ['open', 'open']);
    const first = await decide(guild, key, number!, 'approve', { body: { reason: 'Yes.' }, idempotencyKey: 'reuse' });
    expect(first.status).toBe(202);
    await refused(guild.id, async () => {
      for (const [verb, target, body] of [
        ['approve', number!, { reason: 'Yes!' }],
        ['approve', number!, undefined],
        ['approve', number!, { reason: null }],
        ['reject', number!, { reason: 'Yes.' }],
        ['approve', other!, { reason: 'Yes.' }],
        ['reject', other!, { reason: 'Yes.' }],
      ] as const) {
        const res = await decide(guild, key, target, verb, { body, idempotencyKey: 'reuse' });
        expect(res.status, `${verb} ${target} ${JSON.stringify(body)}`).toBe(422);
        expect(res.body).toEqual({ error: 'IDEMPOTENCY_KEY_REUSED', message: expect.any(String) });
      }
    });
    expect((await findAppealRow(db(), guild.id, other!))!.status).toBe('open');
  });

  it('simultaneous requests with one key share one decision', async () => {
    const { guild, key } = await setup();
    const { number } = await seedAppeal(guild);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => decide(guild, key, number, 'reject', { body: { reason: 'No.' }, idempotencyKey: 'burst' })),
    );
    expect(results.map((r) => r.status)).toEqual([202, 202, 202, 202]);
    for (const r of results) expect(r.body).toEqual(results[0]!.body);
    expect(results.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(3);
    expect(await auditRows(guild.id)).toHaveLength(1);
    expect(await staffMessages(guild.id, number)).toHaveLength(1);
    expect((await countWrites(db(), guild.id)).idempotency).toBe(1);
  });

  it('a refused decision is not stored: the key works once the problem is fixed', async () => {
    const { guild, key } = await setup();
    const closed = await seedAppeal(guild, { status: 'closed' });
    const refusedRes = await decide(guild, key, closed.number, 'approve', { idempotencyKey: 'retry' });
    expect(refusedRes.status).toBe(409);
    expect((await countWrites(db(), guild.id)).idempotency).toBe(0);
    // The client fixes its request (the right appeal number) and retries with the same key.
    const open = await seedAppeal(guild);
    const fixed = await decide(guild, key, open.number, 'approve', { idempotencyKey: 'retry' });
    expect(fixed.status).toBe(202);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
    expect(fixed.body).toMatchObject({ number: open.number, status: 'approved' });
  });
});

describe('feature and scopes', () => {
  it('answers 409 FEATURE_DISABLED on every appeals endpoint when Ban appeals is off; nothing changes', async () => {
    const { guild, key } = await setup({ features: FEATURES.filter((f) => f !== 'appeals') });
    const { number } = await seedAppeal(guild);
    await refused(guild.id, async () => {
      for (const [method, path, body] of [
        ['GET', '', undefined],
        ['GET', '?status=all', undefined],
        ['GET', `/${number}`, undefined],
        ['GET', '/999', undefined],
        ['POST', `/${number}/approve`, { reason: 'x' }],
        ['POST', `/${number}/reject`, undefined],
        ['POST', `/${number}/approve`, { reason: 5 }],
      ] as const) {
        const res = await app.http(method, `/guilds/${guild.id}/appeals${path}`, {
          headers: { ...bearer(key), ...(method === 'POST' ? { 'Idempotency-Key': 'off' } : {}) },
          body,
        });
        expect(res.status, `${method} ${path}`).toBe(409);
        expect(res.body, `${method} ${path}`).toEqual({ error: 'FEATURE_DISABLED', message: expect.stringContaining('Ban appeals') });
      }
    });
  });

  it('a key with appeals:read reads but cannot decide: 403 INSUFFICIENT_SCOPE with required appeals:write', async () => {
    const { guild, key } = await setup({ scopes: ['appeals:read'] });
    const { number } = await seedAppeal(guild);
    expect(numbersOf(await list(guild, key))).toEqual([number]);
    expect((await getAppeal(guild, key, number)).status).toBe(200);
    await refused(guild.id, async () => {
      for (const verb of VERBS) {
        for (const [target, body] of [
          [number, { reason: 'x' }],
          [number, undefined],
          [999, { reason: 5 }],
        ] as const) {
          const res = await decide(guild, key, target, verb, { body, idempotencyKey: 'scope' });
          expect(res.status, verb).toBe(403);
          expect(res.body).toEqual({ error: 'INSUFFICIENT_SCOPE', message: expect.any(String), required: 'appeals:write' });
        }
      }
    });
  });

  it('appeals:write alone decides but does not read: GETs answer 403 with required appeals:read', async () => {
    const { guild, key } = await setup({ scopes: ['appeals:write'] });
    const { number } = await seedAppeal(guild);
    for (const path of ['', '?status=all', `/${number}`]) {
      const res = await app.http('GET', `/guilds/${guild.id}/appeals${path}`, { headers: bearer(key) });
      expect(res.status, path).toBe(403);
      expect(res.body).toEqual({ error: 'INSUFFICIENT_SCOPE', message: expect.any(String), required: 'appeals:read' });
    }
    expect((await decide(guild, key, number, 'approve')).status).toBe(202);
  });

  it('a key with every other scope gets 403 on every appeals endpoint; nothing changes', async () => {
    const { guild, key } = await setup({ scopes: SCOPES.filter((s) => !s.startsWith('appeals:')) });
    const { number } = await seedAppeal(guild);
    await refused(guild.id, async () => {
      for (const [method, path, required] of [
        ['GET', '', 'appeals:read'],
        ['GET', `/${number}`, 'appeals:read'],
        ['POST', `/${number}/approve`, 'appeals:write'],
        ['POST', `/${number}/reject`, 'appeals:write'],
      ] as const) {
        const res = await app.http(method, `/guilds/${guild.id}/appeals${path}`, { headers: bearer(key) });
        expect(res.status, path).toBe(403);
        expect(res.body).toEqual({ error: 'INSUFFICIENT_SCOPE', message: expect.any(String), required });
      }
    });
  });
});

describe('applying', () => {
  it('is true in the 202 and turns false once the worker applied the decision', async () => {
    const { guild, key } = await setup();
    await upsertPlatformChannels(db(), guild.id, [{ channelId: snowflake(), name: 'general', type: 'text', position: 0 }]);
    const userId = snowflake();
    await banPlatformUser(db(), { guildId: guild.id, userId, reason: 'spam' });
    const { number } = await seedAppeal(guild, { userId, at: new Date() });
    const res = await liveApp.http('POST', `/guilds/${guild.id}/appeals/${number}/approve`, { headers: bearer(key), body: { reason: 'Welcome back.' } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'approved', applying: true, failedAction: null });
    const done = await eventually(
      () => liveApp.http('GET', `/guilds/${guild.id}/appeals/${number}`, { headers: bearer(key) }),
      (r) => r.body?.applying === false,
    );
    expect(done.body).toMatchObject({ status: 'approved', applying: false, failedAction: null, reason: 'Welcome back.' });
    expect(await findPlatformBan(db(), guild.id, userId)).toBeUndefined();
    expect((await findAppealRow(db(), guild.id, number))!.workflow_started_at).not.toBeNull();
  });
});
