import { describe, expect, it } from 'vitest';
import { FEATURES } from '../../../src/core/features.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { snowflake } from '../../harness/fixtures.js';
import { ticketRequests } from '../../harness/tickets.js';

// GET tickets/{ticketNo}: the TicketDetail shape and its 404.
const NOW = new Date('2026-11-24T12:00:00.000Z');
const { db, app } = useApiTestBed({ now: NOW });
const { setup, open, message, markPending, getTicket } = ticketRequests(db, app, NOW);

describe('GET /tickets/{ticketNo}', () => {
  it('returns the ticket with panel title, answers, members, first response and close request', async () => {
    const { guild, key } = await setup();
    const opener = snowflake();
    const helper = snowflake();
    const staff = snowflake();
    const roleId = snowflake();
    const at = new Date('2026-11-23T10:00:00.000Z');
    const { ticketNo } = await open(guild, {
      userId: opener,
      panel: { id: 2, title: 'Appeals desk' },
      subject: null,
      source: 'panel',
      isThread: true,
      answers: [
        { fieldId: 'order', label: 'Order number', value: 'A-17' },
        { fieldId: null, label: 'Anything else?', value: '' },
      ],
      members: [
        { targetId: helper, type: 'user' },
        { targetId: roleId, type: 'role' },
      ],
      at,
    });
    await message(guild, ticketNo, { authorId: helper, createdAt: new Date('2026-11-23T10:01:00.000Z') });
    await message(guild, ticketNo, { authorId: staff, createdAt: new Date('2026-11-23T10:05:00.000Z') });
    await message(guild, ticketNo, { authorId: snowflake(), createdAt: new Date('2026-11-23T10:06:00.000Z') });
    await markPending(guild, ticketNo);
    await db()
      .updateTable('tickets')
      .set({ close_request: JSON.stringify({ reason: 'Solved?', closeAt: '2026-11-25T10:00:00.000Z', viaApi: false }), claimed_by: staff })
      .where('guild_id', '=', guild.id)
      .where('ticket_no', '=', ticketNo)
      .execute();

    const res = await getTicket(guild, key, ticketNo);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ticketNo,
      status: 'pending',
      userId: opener,
      panelId: 2,
      subject: null,
      source: 'panel',
      isThread: true,
      channelId: expect.any(String),
      claimedBy: staff,
      openedAt: at.toISOString(),
      lastMessageAt: '2026-11-23T10:06:00.000Z',
      closedAt: null,
      closedBy: null,
      closeReason: null,
      closeType: null,
      messageCount: { user: 1, staff: 2 },
      rating: null,
      hasTranscript: false,
      panelTitle: 'Appeals desk',
      firstResponseAt: '2026-11-23T10:05:00.000Z',
      firstResponseBy: staff,
      answers: [
        { fieldId: 'order', label: 'Order number', value: 'A-17' },
        { fieldId: null, label: 'Anything else?', value: '' },
      ],
      members: [
        { targetId: helper, type: 'user' },
        { targetId: roleId, type: 'role' },
      ],
      closeRequest: { reason: 'Solved?', closeAt: '2026-11-25T10:00:00.000Z', viaApi: false },
    });
  });

  it('answers 404 TICKET_NOT_FOUND for an unknown number or another server’s ticket, 400 for a malformed one', async () => {
    const { guild, key } = await setup();
    const other = await setup();
    const { ticketNo } = await open(other.guild, {});
    for (const n of [999, ticketNo + 1]) {
      const res = await getTicket(guild, key, n);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'TICKET_NOT_FOUND', message: expect.any(String) });
    }
    expect((await getTicket(other.guild, other.key, ticketNo)).status).toBe(200);
    for (const bad of ['0', 'x', '1000000000', '-1']) {
      const res = await getTicket(guild, key, bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.error, bad).toBe('INVALID_REQUEST');
    }
  });

  it('needs tickets:read and the Tickets feature', async () => {
    const noScope = await setup({ scopes: ['tickets:write'] });
    const { ticketNo } = await open(noScope.guild, {});
    const res = await getTicket(noScope.guild, noScope.key, ticketNo);
    expect(res.status).toBe(403);
    expect(res.body.required).toBe('tickets:read');
    const off = await setup({ features: FEATURES.filter((f) => f !== 'tickets') });
    const disabled = await getTicket(off.guild, off.key, 1);
    expect(disabled.status).toBe(409);
    expect(disabled.body.error).toBe('FEATURE_DISABLED');
  });
});
