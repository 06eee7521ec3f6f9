import { describe, expect, it } from 'vitest';
import { findTicket } from '../../../db/tickets/tickets.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { createTestKey, snowflake } from '../../harness/fixtures.js';
import { countWrites } from '../../harness/rows.js';
import { ticketRequests } from '../../harness/tickets.js';

const NOW = new Date('2026-11-24T12:00:00.000Z');

// Closes start their workflow on a task queue nobody polls: the HTTP layer is what is under test here,
// so the close stays `applying` (closeRequest via the API) and no platform effect changes rows behind the test's back.
const { db, app } = useApiTestBed({ now: NOW, temporal: true });
const { setup, open, message, close, markPending, getTicket, transcript, closeViaApi, refused, auditRows } = ticketRequests(db, app, NOW);

const closedEvents = (guildId: string) =>
  db().selectFrom('events').select(['type', 'data']).where('guild_id', '=', guildId).where('type', '=', 'tickets.closed').execute();

describe('POST /tickets/{ticketNo}/close', () => {
  it.each(['open', 'pending'] as const)(
    'a %s ticket: 202 TicketDetail closed at once (closedBy null, closeType manual), transcript saved, audit row and tickets.closed',
    async (from) => {
      const { guild, key, keyId } = await setup();
      const opener = snowflake();
      const staff = snowflake();
      const { ticketNo } = await open(guild, { userId: opener });
      await message(guild, ticketNo, { authorId: opener, content: 'my order is late' });
      await message(guild, ticketNo, { authorId: staff, content: 'looking into it' });
      if (from === 'pending') await markPending(guild, ticketNo);
      const before = await countWrites(db(), guild.id);

      const res = await closeViaApi(guild, key, ticketNo, { reason: 'Resolved by the API.' });
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({
        ticketNo,
        status: 'closed',
        userId: opener,
        closedAt: NOW.toISOString(),
        closedBy: null,
        closeReason: 'Resolved by the API.',
        closeType: 'manual',
        hasTranscript: true,
        messageCount: { user: 1, staff: 1 },
        closeRequest: { reason: 'Resolved by the API.', closeAt: NOW.toISOString(), viaApi: true },
      });
      expect(res.headers['idempotent-replayed']).toBeUndefined();
      expect((await getTicket(guild, key, ticketNo)).body).toEqual(res.body);

      const row = await findTicket(db(), guild.id, ticketNo);
      expect(row).toMatchObject({ status: 'closed', closeApplying: true, closeFailedActions: null, transcriptGeneratedAt: NOW, transcriptTotal: 2 });
      const page = await transcript(guild, key, ticketNo);
      expect(page.status).toBe(200);
      expect(page.body.messages.map((m: { content: string }) => m.content)).toEqual(['my order is late', 'looking into it']);

      expect(await auditRows(guild.id)).toEqual([
        expect.objectContaining({ action: 'tickets.open' }),
        expect.objectContaining({
          actor_type: 'api_key',
          actor_id: guild.ownerId,
          api_key_id: keyId,
          action: 'tickets.close',
          target_type: 'ticket',
          target_id: String(ticketNo),
          request_id: expect.any(String),
          data: { userId: opener, previousStatus: from, closedBy: null, closeType: 'manual', reason: 'Resolved by the API.' },
        }),
      ]);
      expect(await closedEvents(guild.id)).toEqual([
        {
          type: 'tickets.closed',
          data: {
            ticketNo,
            userId: opener,
            closedBy: null,
            closeReason: 'Resolved by the API.',
            closeType: 'manual',
            hasTranscript: true,
            closedAt: NOW.toISOString(),
          },
        },
      ]);
      expect(await countWrites(db(), guild.id)).toEqual({ ...before, audit: before.audit + 1, events: before.events + 1 });
    },
  );

  it('takes no reason (null), an empty body, and no transcript when the server keeps none', async () => {
    const { guild, key } = await setup();
    const { ticketNo } = await open(guild);
    const res = await closeViaApi(guild, key, ticketNo, {});
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'closed', closeReason: null, closeRequest: { reason: null, viaApi: true } });

    await db().insertInto('ticket_settings').values({ guild_id: guild.id, transcripts: false }).onConflict((oc) => oc.column('guild_id').doUpdateSet({ transcripts: false })).execute();
    const { ticketNo: other } = await open(guild);
    const second = await closeViaApi(guild, key, other, { reason: null });
    expect(second.body).toMatchObject({ status: 'closed', closeReason: null, hasTranscript: false });
    expect((await transcript(guild, key, other)).body).toMatchObject({ error: 'TRANSCRIPT_NOT_FOUND' });
  });

  it('a reason of exactly 1000 characters is accepted', async () => {
    const { guild, key } = await setup();
    const { ticketNo } = await open(guild);
    expect((await closeViaApi(guild, key, ticketNo, { reason: 'x'.repeat(1000) })).status).toBe(202);
  });

  it('a closed ticket answers 409 TICKET_ALREADY_CLOSED, whoever closed it; nothing changes', async () => {
    const { guild, key } = await setup();
    const { ticketNo: byStaff } = await open(guild);
    await close(guild, byStaff);
    const { ticketNo: byApi } = await open(guild);
    expect((await closeViaApi(guild, key, byApi, { reason: 'first' })).status).toBe(202);
    await refused(guild.id, async () => {
      for (const ticketNo of [byStaff, byApi]) {
        const res = await closeViaApi(guild, key, ticketNo, { reason: 'again' });
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ error: 'TICKET_ALREADY_CLOSED', message: expect.any(String) });
      }
    });
  });

  it('an unknown ticket answers 404 TICKET_NOT_FOUND; nothing changes', async () => {
    const { guild, key } = await setup();
    await open(guild);
    const other = await setup();
    const { ticketNo: elsewhere } = await open(other.guild);
    await refused(guild.id, async () => {
      for (const ticketNo of [77, elsewhere + 1000]) {
        const res = await closeViaApi(guild, key, ticketNo, { reason: 'gone' });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: 'TICKET_NOT_FOUND', message: expect.any(String) });
      }
    });
  });

  it.each([
    [{ reason: 'x'.repeat(1001) }, 'reason'],
    [{ reason: 5 }, 'reason'],
    [{ reason: 'ok', closeType: 'autoclose' }, ''],
  ])('body %j answers 400 INVALID_REQUEST; nothing changes', async (body, path) => {
    const { guild, key } = await setup();
    const { ticketNo } = await open(guild);
    await refused(guild.id, async () => {
      const res = await closeViaApi(guild, key, ticketNo, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'INVALID_REQUEST', issues: [expect.objectContaining({ location: 'body', path })] });
    });
  });

  it('a ticket number out of range answers 400 INVALID_REQUEST; nothing changes', async () => {
    const { guild, key } = await setup();
    await open(guild);
    await refused(guild.id, async () => {
      const res = await closeViaApi(guild, key, 0, { reason: 'x' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'INVALID_REQUEST', issues: [expect.objectContaining({ location: 'path', path: 'ticketNo' })] });
    });
  });

  it('needs tickets:write (403 INSUFFICIENT_SCOPE) and the Tickets feature (409 FEATURE_DISABLED); nothing changes', async () => {
    const { guild } = await setup();
    const { ticketNo } = await open(guild);
    const { key: readOnly } = await createTestKey(db(), guild, { scopes: ['tickets:read'] });
    await refused(guild.id, async () => {
      const res = await closeViaApi(guild, readOnly, ticketNo, { reason: 'x' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'INSUFFICIENT_SCOPE', message: expect.any(String), required: 'tickets:write' });
    });
    const off = await setup();
    const { ticketNo: offNo } = await open(off.guild);
    // The feature is turned off after the ticket was opened.
    await db().updateTable('guilds').set({ features: ['bank'] }).where('id', '=', off.guild.id).execute();
    await refused(off.guild.id, async () => {
      const res = await closeViaApi(off.guild, off.key, offNo, { reason: 'x' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'FEATURE_DISABLED', message: expect.any(String) });
    });
  });

  it('two closes at once: one wins, the other answers 409 TICKET_ALREADY_CLOSED; one audit row and one event', async () => {
    const { guild, key } = await setup();
    const { ticketNo } = await open(guild);
    const results = await Promise.all([closeViaApi(guild, key, ticketNo, { reason: 'a' }), closeViaApi(guild, key, ticketNo, { reason: 'b' })]);
    expect(results.map((r) => r.status).sort()).toEqual([202, 409]);
    expect(results.find((r) => r.status === 409)!.body).toMatchObject({ error: 'TICKET_ALREADY_CLOSED' });
    expect((await auditRows(guild.id)).filter((r) => r.action === 'tickets.close')).toHaveLength(1);
    expect(await closedEvents(guild.id)).toHaveLength(1);
  });
});

describe('Idempotency-Key on the close', () => {
  it('a replay answers the stored 202 with Idempotent-Replayed and changes nothing, also once the close is applied', async () => {
    const { guild, key } = await setup();
    const { ticketNo } = await open(guild);
    const send = () => closeViaApi(guild, key, ticketNo, { reason: 'Once.' }, `close-${ticketNo}`);
    const first = await send();
    expect(first.status).toBe(202);
    await refused(guild.id, async () => {
      const again = await send();
      expect(again.status).toBe(202);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      const fresh = await closeViaApi(guild, key, ticketNo, { reason: 'Once.' });
      expect(fresh.body).toMatchObject({ error: 'TICKET_ALREADY_CLOSED' });
    });
    await db().updateTable('tickets').set({ close_applying: false }).where('guild_id', '=', guild.id).where('ticket_no', '=', ticketNo).execute();
    await refused(guild.id, async () => {
      const later = await send();
      expect(later.status).toBe(202);
      expect(later.body).toEqual(first.body);
    });
    expect(await closedEvents(guild.id)).toHaveLength(1);
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED for the same key with another body or ticket; nothing changes', async () => {
    const { guild, key } = await setup();
    const { ticketNo } = await open(guild);
    const { ticketNo: other } = await open(guild);
    expect((await closeViaApi(guild, key, ticketNo, { reason: 'r' }, 'reuse')).status).toBe(202);
    await refused(guild.id, async () => {
      for (const [target, body] of [
        [ticketNo, { reason: 'another' }],
        [ticketNo, {}],
        [other, { reason: 'r' }],
      ] as const) {
        const res = await closeViaApi(guild, key, target, body, 'reuse');
        expect(res.status).toBe(422);
        expect(res.body).toEqual({ error: 'IDEMPOTENCY_KEY_REUSED', message: expect.any(String) });
      }
    });
  });

  it('a refused request is not stored: the key works again after the problem is fixed', async () => {
    const { guild, key } = await setup();
    const { ticketNo } = await open(guild);
    expect((await closeViaApi(guild, key, ticketNo, { reason: 'x'.repeat(1001) }, 'retry')).status).toBe(400);
    expect((await closeViaApi(guild, key, ticketNo, { reason: 'fine' }, 'retry')).status).toBe(202);
  });
});
