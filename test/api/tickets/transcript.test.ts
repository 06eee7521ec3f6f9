import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { transcriptPageQuery } from '../../../db/tickets/messages.js';
import { setTicketTranscripts } from '../../../db/tickets/closes.js';
import { FEATURES } from '../../../src/core/features.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { snowflake } from '../../harness/fixtures.js';
import { ticketRequests } from '../../harness/tickets.js';

// GET tickets/{ticketNo}/transcript: content, paging by message id, its 404s, and what a deep page costs.
const NOW = new Date('2026-11-24T12:00:00.000Z');
const { db, app } = useApiTestBed({ now: NOW });
const { setup, open, message, close, markPending, transcript } = ticketRequests(db, app, NOW);

describe('GET /tickets/{ticketNo}/transcript', () => {
  it('returns the saved messages oldest first, text only, with per-author counts', async () => {
    const { guild, key } = await setup();
    const opener = snowflake();
    const staff = snowflake();
    const { ticketNo } = await open(guild, { userId: opener });
    const first = await message(guild, ticketNo, { authorId: opener, content: 'My order is late', createdAt: new Date('2026-11-23T10:00:00.000Z') });
    await message(guild, ticketNo, {
      authorId: staff,
      content: 'Looking into it',
      createdAt: new Date('2026-11-23T10:01:00.000Z'),
      editedAt: new Date('2026-11-23T10:02:00.000Z'),
      replyTo: first.record.id,
      embeds: [{ title: 'Order', description: null, fields: [{ name: 'Status', value: 'shipped' }] }],
      attachments: [{ name: 'label.png', size: 2048, contentType: 'image/png' }],
      stickers: ['wave'],
    });
    await message(guild, ticketNo, { authorId: null, system: true, content: 'Ticket claimed', createdAt: new Date('2026-11-23T10:03:00.000Z') });
    await close(guild, ticketNo, { closedBy: staff, at: new Date('2026-11-23T11:00:00.000Z'), messageContent: false });

    const res = await transcript(guild, key, ticketNo);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ticketNo,
      generatedAt: '2026-11-23T11:00:00.000Z',
      messageContent: false,
      totalMessages: 3,
      users: { [opener]: { messages: 1 }, [staff]: { messages: 1 } },
      messages: [
        {
          id: first.record.id,
          authorId: opener,
          content: 'My order is late',
          createdAt: '2026-11-23T10:00:00.000Z',
          editedAt: null,
          system: false,
          replyTo: null,
          embeds: [],
          attachments: [],
          stickers: [],
        },
        {
          id: expect.any(String),
          authorId: staff,
          content: 'Looking into it',
          createdAt: '2026-11-23T10:01:00.000Z',
          editedAt: '2026-11-23T10:02:00.000Z',
          system: false,
          replyTo: first.record.id,
          embeds: [{ title: 'Order', description: null, fields: [{ name: 'Status', value: 'shipped' }] }],
          attachments: [{ name: 'label.png', size: 2048, contentType: 'image/png' }],
          stickers: ['wave'],
        },
        {
          id: expect.any(String),
          authorId: null,
          content: 'Ticket claimed',
          createdAt: '2026-11-23T10:03:00.000Z',
          editedAt: null,
          system: true,
          replyTo: null,
          embeds: [],
          attachments: [],
          stickers: [],
        },
      ],
      nextCursor: null,
    });
  });

  it('pages with after and nextCursor (default 100, up to 500), in message id order', async () => {
    const { guild, key } = await setup();
    const opener = snowflake();
    const { ticketNo } = await open(guild, { userId: opener });
    // Ids of different lengths: the order is numeric, not textual.
    const ids = ['99999999999999999', '100000000000000000', '100000000000000001', '9000000000000000000', '10000000000000000000'];
    for (const id of ids) await message(guild, ticketNo, { id, authorId: opener });
    for (let i = 0; i < 600; i++) await message(guild, ticketNo, { id: String(10000000000000000001n + BigInt(i)), authorId: opener });
    await close(guild, ticketNo);

    const byDefault = await transcript(guild, key, ticketNo);
    expect(byDefault.body.messages).toHaveLength(100);
    expect(byDefault.body.totalMessages).toBe(605);
    expect(byDefault.body.messages.slice(0, 5).map((m: { id: string }) => m.id)).toEqual(ids);

    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const res = await transcript(guild, key, ticketNo, `limit=200${after === null ? '' : `&after=${after}`}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.messages.map((m: { id: string }) => m.id));
      after = res.body.nextCursor;
      pages++;
    } while (after !== null && pages < 10);
    expect(pages).toBe(4);
    expect(seen).toHaveLength(605);
    expect(seen.slice(0, 5)).toEqual(ids);
    expect(new Set(seen).size).toBe(605);
    const full = await transcript(guild, key, ticketNo, 'limit=500');
    expect(full.body.messages).toHaveLength(500);
    expect(full.body.nextCursor).toBe(full.body.messages[499].id);
    // A page that ends exactly at the last message has no cursor.
    const rest = await transcript(guild, key, ticketNo, `limit=105&after=${full.body.nextCursor}`);
    expect(rest.body.messages).toHaveLength(105);
    expect(rest.body.nextCursor).toBeNull();
  });

  it('reads a deep page of a 50,000-message transcript with the same work as the first page', async () => {
    const { guild } = await setup();
    const opener = snowflake();
    const { ticketNo } = await open(guild, { userId: opener });
    await sql`
      INSERT INTO ticket_messages (guild_id, ticket_no, message_id, author_id, content, created_at)
      SELECT ${guild.id}, ${ticketNo}, 1200000000000000000 + g, ${opener}, 'message ' || g, now()
      FROM generate_series(1, 50000) AS g`.execute(db());
    await sql`ANALYZE ticket_messages`.execute(db());
    const plan = async (after: string | null) => {
      // The very query the endpoint runs, explained with its actual work.
      const rows = await transcriptPageQuery(db(), guild.id, ticketNo, { after: after ?? undefined, limit: 501 }).explain('json', sql`analyze, buffers`);
      const root = (rows[0]!['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0]!.Plan;
      return root;
    };
    type PlanNode = { 'Node Type': string; 'Actual Rows': number; 'Shared Hit Blocks': number; 'Shared Read Blocks': number; Plans?: PlanNode[] };
    const scan = (root: PlanNode) => root.Plans![0]!;
    const first = await plan(null);
    const deep = await plan(String(1200000000000000000n + 49000n));
    for (const p of [first, deep]) {
      expect(p['Node Type']).toBe('Limit');
      // One index range scan that stops after the page: no sort, no skipped rows.
      expect(scan(p)['Node Type']).toMatch(/Index/);
      expect(scan(p)['Actual Rows']).toBe(501);
    }
    const blocks = (p: PlanNode) => p['Shared Hit Blocks'] + p['Shared Read Blocks'];
    expect(blocks(deep)).toBeLessThanOrEqual(blocks(first) + 5);
  });

  it('answers 404 TRANSCRIPT_NOT_FOUND for open and pending tickets and when transcripts were off at close', async () => {
    const { guild, key } = await setup();
    const openOne = await open(guild, {});
    await message(guild, openOne.ticketNo, { authorId: openOne.userId });
    const pending = await open(guild, {});
    await markPending(guild, pending.ticketNo);
    await setTicketTranscripts(db(), guild.id, false);
    const off = await open(guild, {});
    await message(guild, off.ticketNo, { authorId: off.userId });
    await close(guild, off.ticketNo);
    for (const ticketNo of [openOne.ticketNo, pending.ticketNo, off.ticketNo]) {
      const res = await transcript(guild, key, ticketNo);
      expect(res.status, String(ticketNo)).toBe(404);
      expect(res.body, String(ticketNo)).toEqual({ error: 'TRANSCRIPT_NOT_FOUND', message: expect.any(String) });
    }
    const unknown = await transcript(guild, key, 999);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('TICKET_NOT_FOUND');
  });

  it('answers 400 INVALID_REQUEST for limit and after out of bounds; needs tickets:read and the feature', async () => {
    const { guild, key } = await setup();
    const { ticketNo } = await open(guild, {});
    await close(guild, ticketNo);
    for (const query of ['limit=0', 'limit=501', 'limit=x', 'after=12', 'after=abc']) {
      const res = await transcript(guild, key, ticketNo, query);
      expect(res.status, query).toBe(400);
      expect(res.body.error, query).toBe('INVALID_REQUEST');
    }
    expect((await transcript(guild, key, ticketNo, 'limit=500')).status).toBe(200);
    const noScope = await setup({ scopes: ['tickets:write'] });
    expect((await transcript(noScope.guild, noScope.key, 1)).body.error).toBe('INSUFFICIENT_SCOPE');
    const offFeature = await setup({ features: FEATURES.filter((f) => f !== 'tickets') });
    expect((await transcript(offFeature.guild, offFeature.key, 1)).status).toBe(409);
  });
});
