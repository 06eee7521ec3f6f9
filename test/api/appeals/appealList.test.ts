import { describe, expect, it } from 'vitest';
import { addAppealMessage } from '../../../db/appeals/appeals.js';
import { APPEAL_STATUSES, type AppealStatus } from '../../../src/appeals/contract.js';
import { snowflake } from '../../harness/fixtures.js';
import { appealRequests, desc, numbersOf } from '../../harness/appeals.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';

// GET appeals: the status filter, order and cursors.
const NOW = new Date('2026-11-22T12:00:00.000Z');

const { db, app } = useApiTestBed({ now: NOW, temporal: true });

const { setup, seedAppeal, seedMany, list, allPages } = appealRequests(db, app, NOW);

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
