import { describe, expect, it } from 'vitest';
import { insertCase } from '../../../db/moderation/cases.js';
import { snowflake } from '../../harness/fixtures.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { createModerationGuild, type ModerationGuild } from '../../harness/moderationGuild.js';
import { CASE_EPOCH, expected, issuesAt, moderationRequests, numbers, type Seeded } from '../../harness/moderationRequests.js';

// GET moderation cases: filters, order and cursors.
const START = new Date('2026-11-22T12:00:20Z');
const { db, app } = useApiTestBed({ now: START, temporal: true });

const { get, seedCases } = moderationRequests(db, app);

describe('GET moderation cases', () => {
  async function filterFixture() {
    const g = await createModerationGuild(db());
    const [alice, bob] = [snowflake(), snowflake()];
    const mod = g.moderatorId;
    const bot = g.botUserId;
    const seeded = await seedCases(g.id, [
      { action: 'warn', userId: alice, moderatorId: mod, source: 'api', active: true },
      { action: 'timeout', userId: bob, moderatorId: mod, source: 'command', active: true },
      { action: 'kick', userId: alice, moderatorId: bot, source: 'automod', active: false },
      { action: 'ban', userId: bob, moderatorId: mod, source: 'console', active: false, deleted: true },
      { action: 'tempban', userId: alice, moderatorId: bot, source: 'escalation', active: true },
      { action: 'warn', userId: bob, moderatorId: mod, source: 'command', active: false },
      { action: 'note', userId: alice, moderatorId: mod, source: 'command', active: false, deleted: true },
      { action: 'unban', userId: bob, moderatorId: bot, source: 'antiraid', active: false },
      { action: 'warn', userId: alice, moderatorId: mod, source: 'api', active: true },
      { action: 'softban', userId: bob, moderatorId: bot, source: 'antinuke', active: false },
      { action: 'purge', userId: alice, moderatorId: mod, source: 'command', active: false },
      { action: 'warn', userId: alice, moderatorId: mod, source: 'automod', active: true, deleted: true },
      { action: 'untimeout', userId: bob, moderatorId: mod, source: 'api', active: false },
    ]);
    // Another server's cases never show.
    const other = await createModerationGuild(db());
    await seedCases(other.id, [{ action: 'warn', userId: alice, moderatorId: other.moderatorId, source: 'api', active: true }]);
    return { g, seeded, alice, bob };
  }

  it('lists every visible case newest first, deleted ones left out', async () => {
    const { g, seeded } = await filterFixture();
    const res = await get(g, '/cases');
    expect(res.status).toBe(200);
    expect(numbers(res.body)).toEqual(expected(seeded));
    expect(numbers(res.body)).toEqual([13, 11, 10, 9, 8, 6, 5, 3, 2, 1]);
    expect(res.body.nextCursor).toBeNull();
  });

  it('filters by action, source, userId, moderatorId and active, alone and together', async () => {
    const { g, seeded, alice, bob } = await filterFixture();
    const checks: Array<[string, (s: Seeded) => boolean]> = [
      ['action=warn', (s) => s.action === 'warn'],
      ['action=tempban', (s) => s.action === 'tempban'],
      ['action=ban', (s) => s.action === 'ban'],
      ['action=note', (s) => s.action === 'note'],
      ['source=api', (s) => s.source === 'api'],
      ['source=automod', (s) => s.source === 'automod'],
      ['source=antinuke', (s) => s.source === 'antinuke'],
      [`userId=${alice}`, (s) => s.userId === alice],
      [`userId=${bob}`, (s) => s.userId === bob],
      [`userId=${snowflake()}`, () => false],
      [`moderatorId=${g.botUserId}`, (s) => s.moderatorId === g.botUserId],
      [`moderatorId=${g.moderatorId}`, (s) => s.moderatorId === g.moderatorId],
      ['active=1', (s) => s.active],
      ['active=true', (s) => s.active],
      ['active=0', (s) => !s.active],
      ['active=false', (s) => !s.active],
      [`action=warn&active=true&userId=${alice}`, (s) => s.action === 'warn' && s.active && s.userId === alice],
      [`source=command&moderatorId=${g.moderatorId}&active=0`, (s) => s.source === 'command' && s.moderatorId === g.moderatorId && !s.active],
    ];
    for (const [query, keep] of checks) {
      const res = await get(g, `/cases?${query}`);
      expect(res.status, query).toBe(200);
      expect(numbers(res.body), query).toEqual(expected(seeded, keep));
      expect(res.body.nextCursor, query).toBeNull();
    }
    // The filters select something in each direction (the fixture is not degenerate).
    expect(expected(seeded, (s) => s.active).length).toBeGreaterThan(0);
    expect(expected(seeded, (s) => !s.active).length).toBeGreaterThan(0);
  });

  it('gives each case in the documented shape', async () => {
    const g = await createModerationGuild(db());
    const userId = snowflake();
    const createdAt = new Date('2026-11-21T08:00:00Z');
    const expiresAt = new Date('2026-11-21T09:00:00Z');
    await insertCase(db(), {
      guildId: g.id,
      action: 'timeout',
      userId,
      userTag: 'target#0001',
      moderatorId: g.moderatorId,
      reason: 'cool down',
      durationSeconds: 3600,
      evidence: ['https://example.com/a.png'],
      source: 'api',
      active: true,
      expiresAt,
      dmStatus: 'sent',
      apiKey: { id: g.keyId, name: 'mod key' },
      operationId: null,
      createdAt,
    });
    await seedCases(g.id, [{ action: 'kick', userId, moderatorId: g.botUserId, source: 'automod', active: false }]);
    const res = await get(g, '/cases');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [
        {
          number: 2,
          action: 'kick',
          userId,
          userTag: null,
          moderatorId: g.botUserId,
          reason: 'case of kick',
          durationSeconds: null,
          evidence: [],
          source: 'automod',
          active: false,
          expiresAt: null,
          resolvedAt: null,
          dmStatus: null,
          apiKey: null,
          createdAt: new Date(CASE_EPOCH).toISOString(),
        },
        {
          number: 1,
          action: 'timeout',
          userId,
          userTag: 'target#0001',
          moderatorId: g.moderatorId,
          reason: 'cool down',
          durationSeconds: 3600,
          evidence: ['https://example.com/a.png'],
          source: 'api',
          active: true,
          expiresAt: expiresAt.toISOString(),
          resolvedAt: null,
          dmStatus: 'sent',
          apiKey: { id: g.keyId, name: 'mod key' },
          createdAt: createdAt.toISOString(),
        },
      ],
      nextCursor: null,
    });
  });

  describe('paging', () => {
    // 30 cases, 6 of them deleted: 24 visible.
    async function pagingFixture() {
      const g = await createModerationGuild(db());
      const userId = snowflake();
      const seeded = await seedCases(
        g.id,
        Array.from({ length: 30 }, (_, i) => ({
          action: (['warn', 'kick', 'ban'] as const)[i % 3]!,
          userId,
          moderatorId: g.moderatorId,
          source: 'command' as const,
          active: i % 2 === 0,
          deleted: i % 5 === 3,
        })),
      );
      return { g, all: expected(seeded) };
    }

    async function pageThrough(g: ModerationGuild, query: string) {
      const pages: number[][] = [];
      let before: string | null | undefined;
      for (let guard = 0; guard < 50; guard++) {
        const res = await get(g, `/cases?${query}${before ? `&before=${before}` : ''}`);
        expect(res.status).toBe(200);
        pages.push(numbers(res.body));
        before = res.body.nextCursor;
        if (before === null) return pages;
        expect(before).toBe(String(res.body.items.at(-1).number));
      }
      throw new Error('paging did not end');
    }

    it('defaults to 25 per page', async () => {
      const g = await createModerationGuild(db());
      const seeded = await seedCases(
        g.id,
        Array.from({ length: 27 }, () => ({ action: 'warn' as const, userId: snowflake(), moderatorId: g.moderatorId, source: 'api' as const, active: true })),
      );
      const all = expected(seeded);
      const first = await get(g, '/cases');
      expect(first.body.items).toHaveLength(25);
      expect(numbers(first.body)).toEqual(all.slice(0, 25));
      expect(first.body.nextCursor).toBe('3');
      const second = await get(g, `/cases?before=${first.body.nextCursor}`);
      expect(numbers(second.body)).toEqual([2, 1]);
      expect(second.body.nextCursor).toBeNull();
    });

    it.each([1, 4, 5, 7, 24, 25, 100])('pages with limit=%i through every case once, nextCursor null on the last page', async (limit) => {
      const { g, all } = await pagingFixture();
      expect(all).toHaveLength(24);
      const pages = await pageThrough(g, `limit=${limit}`);
      expect(pages.flat()).toEqual(all);
      expect(pages).toHaveLength(Math.ceil(all.length / limit));
      for (const page of pages.slice(0, -1)) expect(page).toHaveLength(limit);
      expect(pages.at(-1)!.length).toBeGreaterThan(0);
    });

    it('pages a filtered list the same way', async () => {
      const { g } = await pagingFixture();
      const everything = (await get(g, '/cases?limit=100&active=1')).body;
      const pages = await pageThrough(g, 'limit=3&active=1');
      expect(pages.flat()).toEqual(numbers(everything));
      expect(pages.flat().length).toBeGreaterThan(3);
    });

    it('starts below any case number given as before', async () => {
      const { g, all } = await pagingFixture();
      expect(numbers((await get(g, '/cases?before=11&limit=100')).body)).toEqual(all.filter((n) => n < 11));
      expect((await get(g, '/cases?before=1')).body).toEqual({ items: [], nextCursor: null });
      expect(numbers((await get(g, '/cases?before=999999999&limit=1')).body)).toEqual([all[0]]);
    });
  });

  it.each<[string, string[]]>([
    ['action=mute', ['action']],
    ['action=WARN', ['action']],
    ['action=warn&action=ban', ['action']],
    ['source=web', ['source']],
    ['userId=abc', ['userId']],
    ['userId=1234', ['userId']],
    ['moderatorId=12345678901234567890123', ['moderatorId']],
    ['active=yes', ['active']],
    ['active=TRUE', ['active']],
    ['active=2', ['active']],
    ['active=', ['active']],
    ['limit=0', ['limit']],
    ['limit=101', ['limit']],
    ['limit=1.5', ['limit']],
    ['limit=abc', ['limit']],
    ['before=0', ['before']],
    ['before=-1', ['before']],
    ['before=1000000000', ['before']],
    ['before=abc', ['before']],
    ['limit=0&before=0&active=maybe', ['active', 'limit', 'before']],
  ])('%s → 400 INVALID_REQUEST in the query', async (query, paths) => {
    const g = await createModerationGuild(db());
    const res = await get(g, `/cases?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'INVALID_REQUEST', message: expect.any(String), issues: issuesAt('query', ...paths) });
  });
});
