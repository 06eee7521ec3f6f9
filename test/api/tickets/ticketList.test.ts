import { describe, expect, it } from 'vitest';
import { FEATURES } from '../../../src/core/features.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { snowflake } from '../../harness/fixtures.js';
import type { TestResponse } from '../../harness/httpClient.js';
import { ticketNosOf, ticketRequests } from '../../harness/tickets.js';

// GET tickets: filters, order, the row shape, cursors, access.
const NOW = new Date('2026-11-24T12:00:00.000Z');
const { db, app } = useApiTestBed({ now: NOW });
const { setup, open, message, close, markPending, list } = ticketRequests(db, app, NOW);

describe('GET /tickets', () => {
  it('lists every status newest first; status, panelId and userId filter; active = open + pending', async () => {
    const { guild, key } = await setup();
    const alice = snowflake();
    const t1 = await open(guild, { userId: alice, panel: { id: 7, title: 'Billing' } });
    const t2 = await open(guild, {});
    const t3 = await open(guild, { userId: alice });
    const t4 = await open(guild, { panel: { id: 7, title: 'Billing' } });
    await markPending(guild, t2.ticketNo);
    await close(guild, t3.ticketNo);
    // Another server's tickets never show.
    const other = await setup();
    await open(other.guild, {});

    const all = await list(guild, key);
    expect(all.status).toBe(200);
    expect(ticketNosOf(all)).toEqual([4, 3, 2, 1]);
    expect(all.body.nextCursor).toBeNull();
    expect(ticketNosOf(await list(guild, key, 'status=open'))).toEqual([t4.ticketNo, t1.ticketNo]);
    expect(ticketNosOf(await list(guild, key, 'status=pending'))).toEqual([t2.ticketNo]);
    expect(ticketNosOf(await list(guild, key, 'status=closed'))).toEqual([t3.ticketNo]);
    expect(ticketNosOf(await list(guild, key, 'status=active'))).toEqual([4, 2, 1]);
    expect(ticketNosOf(await list(guild, key, 'panelId=7'))).toEqual([4, 1]);
    expect(ticketNosOf(await list(guild, key, `userId=${alice}`))).toEqual([3, 1]);
    expect(ticketNosOf(await list(guild, key, `userId=${alice}&status=active`))).toEqual([1]);
    expect(ticketNosOf(await list(guild, key, 'panelId=8'))).toEqual([]);
  });

  it('returns rows of the Ticket shape, with message counts and the close fields', async () => {
    const { guild, key } = await setup();
    const opener = snowflake();
    const staff = snowflake();
    const channelId = snowflake();
    const at = new Date('2026-11-23T08:00:00.000Z');
    const { ticketNo } = await open(guild, { userId: opener, panel: { id: 3, title: 'Support' }, subject: 'Refund', source: 'command', channelId, at });
    await message(guild, ticketNo, { authorId: opener, createdAt: new Date('2026-11-23T08:01:00.000Z') });
    await message(guild, ticketNo, { authorId: staff, createdAt: new Date('2026-11-23T08:02:00.000Z') });
    await message(guild, ticketNo, { authorId: opener, createdAt: new Date('2026-11-23T08:03:00.000Z') });
    await message(guild, ticketNo, { authorId: null, system: true, createdAt: new Date('2026-11-23T08:04:00.000Z') });
    await close(guild, ticketNo, { closedBy: staff, reason: 'done', closeType: 'manual', at: new Date('2026-11-23T09:00:00.000Z') });

    const res = await list(guild, key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [
        {
          ticketNo,
          status: 'closed',
          userId: opener,
          panelId: 3,
          subject: 'Refund',
          source: 'command',
          isThread: false,
          channelId,
          claimedBy: null,
          openedAt: at.toISOString(),
          lastMessageAt: '2026-11-23T08:04:00.000Z',
          closedAt: '2026-11-23T09:00:00.000Z',
          closedBy: staff,
          closeReason: 'done',
          closeType: 'manual',
          messageCount: { user: 2, staff: 1 },
          rating: null,
          hasTranscript: true,
        },
      ],
      nextCursor: null,
    });
  });

  it('pages with before and nextCursor; a full last page has no cursor; pages stay stable while tickets open', async () => {
    const { guild, key } = await setup();
    for (let i = 0; i < 6; i++) await open(guild, {});
    const first = await list(guild, key, 'limit=2');
    expect(ticketNosOf(first)).toEqual([6, 5]);
    expect(first.body.nextCursor).toBe('5');
    // New tickets opened between pages land before the first page, never inside the next ones.
    await open(guild, {});
    await open(guild, {});
    const second = await list(guild, key, `limit=2&before=${first.body.nextCursor}`);
    expect(ticketNosOf(second)).toEqual([4, 3]);
    const third = await list(guild, key, `limit=2&before=${second.body.nextCursor}`);
    expect(ticketNosOf(third)).toEqual([2, 1]);
    expect(third.body.nextCursor).toBeNull();
    expect(ticketNosOf(await list(guild, key, 'limit=8'))).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    expect((await list(guild, key, 'limit=8')).body.nextCursor).toBeNull();
    expect(ticketNosOf(await list(guild, key))).toHaveLength(8);
  });

  it('pages stay disjoint and complete while tickets open concurrently', async () => {
    const { guild, key } = await setup();
    for (let i = 0; i < 20; i++) await open(guild, {});
    const seen: number[] = [];
    let before: string | null = null;
    let pages = 0;
    do {
      const [res]: [TestResponse, ...unknown[]] = await Promise.all([list(guild, key, `limit=3${before === null ? '' : `&before=${before}`}`), open(guild, {}), open(guild, {})]);
      expect(res.status).toBe(200);
      seen.push(...ticketNosOf(res));
      before = res.body.nextCursor;
    } while (before !== null && ++pages < 50);
    // Everything at or below the first page's top, each exactly once, in order.
    const top = seen[0]!;
    expect(top).toBeGreaterThanOrEqual(20);
    expect(seen).toEqual(Array.from({ length: top }, (_, i) => top - i));
  });

  it('answers 400 INVALID_REQUEST for bad filters and bounds', async () => {
    const { guild, key } = await setup();
    for (const query of ['status=all', 'status=OPEN', 'panelId=0', 'panelId=x', 'userId=12', 'limit=0', 'limit=101', 'before=0', 'before=1000000000', 'before=a']) {
      const res = await list(guild, key, query);
      expect(res.status, query).toBe(400);
      expect(res.body.error, query).toBe('INVALID_REQUEST');
    }
    expect((await list(guild, key, 'limit=100&before=999999999')).status).toBe(200);
  });

  it('needs tickets:read and the Tickets feature', async () => {
    const noScope = await setup({ scopes: ['appeals:read'] });
    const res = await list(noScope.guild, noScope.key);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'INSUFFICIENT_SCOPE', message: expect.any(String), required: 'tickets:read' });
    const off = await setup({ features: FEATURES.filter((f) => f !== 'tickets') });
    const disabled = await list(off.guild, off.key);
    expect(disabled.status).toBe(409);
    expect(disabled.body).toEqual({ error: 'FEATURE_DISABLED', message: expect.stringContaining('Tickets') });
  });
});
