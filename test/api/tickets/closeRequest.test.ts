import { describe, expect, it } from 'vitest';
import { findTicket } from '../../../db/tickets/tickets.js';
import { fixedClock, systemClock } from '../../../src/core/clock.js';
import { eventEnvelope } from '../../../src/events/contract.js';
import { verifyWebhook } from '../../../src/webhooks/verifyWebhook.js';
import { cli, cliGuild, type Cli } from '../../admin/cli.js';
import { useSimulateBed } from '../../admin/simulateBed.js';
import { eventually } from '../../harness/eventually.js';
import { bearer, createTestKey, snowflake } from '../../harness/fixtures.js';
import { startReceiver } from '../../harness/receiver.js';
import { countWrites } from '../../harness/rows.js';
import { testGateway, useTestWorker } from '../../harness/temporal.js';
import { useTestApp } from '../../harness/testApp.js';

// Close requests (simulate ticket-close-request / ticket-close-request-answer) as the API then shows them.

const NOW = new Date('2026-11-24T10:00:00Z');
const { database, admin, eventsOf, auditOf } = useSimulateBed(NOW);
const db = () => database.db;
const app = useTestApp(db, { clock: fixedClock(NOW) });
const hourLater = cli(db, fixedClock(new Date(NOW.getTime() + 3_600_000)));

async function ticketGuild(run: Cli = admin) {
  const { id, ownerId } = await cliGuild(run, { features: 'all' });
  const opener = snowflake();
  expect((await run('member', 'add', '--guild', id, '--user', opener)).code).toBe(0);
  expect((await run('simulate', 'ticket-open', '--guild', id, '--user', opener)).code).toBe(0);
  const { key } = await createTestKey(db(), { id, ownerId, botUserId: '' }, { scopes: ['tickets:read'] });
  return { guildId: id, opener, staff: snowflake(), key };
}

const request = (run: Cli, guildId: string, staff: string, ...extra: string[]) =>
  run('simulate', 'ticket-close-request', '--guild', guildId, '--ticket', '1', '--staff', staff, ...extra, '--json');
const answer = (run: Cli, guildId: string, value: string) =>
  run('simulate', 'ticket-close-request-answer', '--guild', guildId, '--ticket', '1', '--answer', value, '--json');
const detail = async (guildId: string, key: string) => (await app.http('GET', `/guilds/${guildId}/tickets/1`, { headers: bearer(key) })).body;

/** Everything a refused command could have written: the ticket row and the guild's writes. */
const state = async (guildId: string) => ({ ticket: await findTicket(db(), guildId, 1), writes: await countWrites(db(), guildId) });

describe('simulate ticket-close-request', () => {
  it('makes the ticket pending with its closeRequest and an audit row, no event; a new request replaces it', async () => {
    const { guildId, staff, key } = await ticketGuild();
    const res = await request(admin, guildId, staff, '--reason', 'Looks solved?', '--close-after', '86400');
    expect(res.stderr).toBe('');
    const closeRequest = { reason: 'Looks solved?', closeAt: '2026-11-25T10:00:00.000Z', viaApi: false };
    expect(res.json()).toEqual({ ticketNo: 1, status: 'pending', closeRequest, requestedBy: staff });
    expect(await detail(guildId, key)).toMatchObject({ status: 'pending', closeRequest, closedAt: null });
    const listed = await app.http('GET', `/guilds/${guildId}/tickets?status=pending`, { headers: bearer(key) });
    expect(listed.body.items.map((t: { ticketNo: number }) => t.ticketNo)).toEqual([1]);
    expect(await auditOf(guildId, 'tickets.closeRequest')).toMatchObject([
      { actor_type: 'operator', actor_id: 'alice', target_type: 'ticket', target_id: '1', data: { requestedBy: staff, previousStatus: 'open' } },
    ]);
    expect((await eventsOf(guildId, 'tickets.closed')).length).toBe(0);

    expect((await request(admin, guildId, staff)).code).toBe(0);
    expect((await detail(guildId, key)).closeRequest).toEqual({ reason: null, closeAt: null, viaApi: false });
  });

  it.each([
    ['an unknown ticket', ['--ticket', '9'], 'TICKET_NOT_FOUND', 1],
    ['a bad --close-after', ['--close-after', '10'], 'INVALID_ARGUMENT', 2],
    ['a reason over 1000 characters', ['--reason', 'x'.repeat(1001)], 'INVALID_ARGUMENT', 2],
  ])('refuses %s and changes nothing', async (_, extra, code, exit) => {
    const { guildId, staff } = await ticketGuild();
    const before = await state(guildId);
    const res = await admin('simulate', 'ticket-close-request', '--guild', guildId, '--ticket', '1', '--staff', staff, ...extra, '--json');
    expect(res.code).toBe(exit);
    expect(res.error().error).toBe(code);
    expect(await state(guildId)).toEqual(before);
  });

  it('refuses a closed ticket with TICKET_CLOSED', async () => {
    const { guildId, staff } = await ticketGuild();
    expect((await admin('simulate', 'ticket-close', '--guild', guildId, '--ticket', '1')).code).toBe(0);
    const before = await state(guildId);
    const res = await request(admin, guildId, staff);
    expect([res.code, res.error().error]).toEqual([1, 'TICKET_CLOSED']);
    expect(await state(guildId)).toEqual(before);
  });
});

describe('simulate ticket-close-request-answer', () => {
  it('accept: closed by the opener with closeType request and the request reason, transcript saved, tickets.closed', async () => {
    const { guildId, opener, staff, key } = await ticketGuild();
    await request(admin, guildId, staff, '--reason', 'Done here?');
    const res = await answer(admin, guildId, 'accept');
    expect(res.stderr).toBe('');
    const [event] = await eventsOf(guildId, 'tickets.closed');
    expect(event!.data).toEqual({
      ticketNo: 1, userId: opener, closedBy: opener, closeReason: 'Done here?', closeType: 'request', hasTranscript: true, closedAt: NOW.toISOString(),
    });
    expect(res.json()).toEqual({
      ticketNo: 1, answer: 'accept', status: 'closed', events: [{ id: event!.id, type: 'tickets.closed', createdAt: NOW.toISOString(), data: event!.data }], fanout: 'relay',
    });
    expect(await detail(guildId, key)).toMatchObject({
      status: 'closed', closedBy: opener, closeType: 'request', closeReason: 'Done here?', closeRequest: null, hasTranscript: true,
    });
    expect(await auditOf(guildId, 'tickets.close')).toMatchObject([{ data: { closeType: 'request', previousStatus: 'pending' } }]);
  });

  it('deny: open again with the request cleared, an audit row and no event', async () => {
    const { guildId, staff, key } = await ticketGuild();
    await request(admin, guildId, staff, '--reason', 'Done here?');
    const res = await answer(admin, guildId, 'deny');
    expect(res.json()).toEqual({ ticketNo: 1, answer: 'deny', status: 'open', events: [], fanout: 'none' });
    expect(await detail(guildId, key)).toMatchObject({ status: 'open', closeRequest: null, closedAt: null, closeType: null });
    expect(await auditOf(guildId, 'tickets.closeRequestDenied')).toMatchObject([{ data: { requestedBy: staff, reason: 'Done here?' } }]);
    expect(await eventsOf(guildId, 'tickets.closed')).toEqual([]);
  });

  it('timeout: refused before closeAt (and without one), then closed by the bot (closedBy null) once it passed', async () => {
    const { guildId, staff, key } = await ticketGuild();
    await request(admin, guildId, staff);
    let before = await state(guildId);
    expect((await answer(hourLater, guildId, 'timeout')).error().error).toBe('CLOSE_REQUEST_NOT_DUE');
    expect(await state(guildId)).toEqual(before);

    await request(admin, guildId, staff, '--close-after', '3600');
    before = await state(guildId);
    expect((await answer(admin, guildId, 'timeout')).error().error).toBe('CLOSE_REQUEST_NOT_DUE');
    expect(await state(guildId)).toEqual(before);
    expect((await answer(hourLater, guildId, 'timeout')).json()).toMatchObject({ status: 'closed' });
    expect(await detail(guildId, key)).toMatchObject({ status: 'closed', closedBy: null, closeType: 'request', closedAt: '2026-11-24T11:00:00.000Z' });
  });

  it.each([
    ['an open ticket', 'accept', 'TICKET_NOT_PENDING', 1],
    ['an unknown answer', 'maybe', 'INVALID_ARGUMENT', 2],
  ])('refuses %s and changes nothing', async (_, value, code, exit) => {
    const { guildId } = await ticketGuild();
    const before = await state(guildId);
    const res = await answer(admin, guildId, value);
    expect([res.code, res.error().error]).toEqual([exit, code]);
    expect(await state(guildId)).toEqual(before);
  });

  it('is listed by simulate --help', async () => {
    const res = await admin('simulate', '--help');
    for (const name of ['ticket-close-request', 'ticket-close-request-answer']) expect(res.stdout).toContain(name);
  });
});

describe('a message while a close request waits', () => {
  it("staff and system messages leave it pending; the opener's message opens it again and clears the request", async () => {
    const { guildId, opener, staff, key } = await ticketGuild();
    await request(admin, guildId, staff, '--reason', 'Done here?');
    const say = (...flags: string[]) => admin('simulate', 'ticket-message', '--guild', guildId, '--ticket', '1', ...flags, '--json');
    expect((await say('--author', staff, '--content', 'ping')).json()).toMatchObject({ side: 'staff', reopened: false });
    expect((await say('--system', '--content', 'pinned')).json()).toMatchObject({ reopened: false });
    expect((await detail(guildId, key)).status).toBe('pending');
    const res = await say('--author', opener, '--content', 'not yet, still broken');
    expect(res.json()).toMatchObject({ side: 'user', reopened: true });
    expect(await detail(guildId, key)).toMatchObject({ status: 'open', closeRequest: null });
    expect((await answer(admin, guildId, 'accept')).error().error).toBe('TICKET_NOT_PENDING');
  });
});

describe('close request answers, through to a webhook receiver', () => {
  const gateway = testGateway();
  useTestWorker(db, gateway);
  const live = cli(db, systemClock, { temporal: gateway, allowInsecureWebhookUrls: true });

  it('an accepted request delivers tickets.closed (closeType request), signed', async () => {
    const receiver = await startReceiver([200]);
    try {
      const { guildId, opener, staff } = await ticketGuild(live);
      const added = await live('webhook', 'add', '--guild', guildId, '--url', receiver.url, '--events', 'tickets.closed', '--json');
      const { secret } = added.json();
      await request(live, guildId, staff, '--reason', 'Done here?');
      const closed = await answer(live, guildId, 'accept');
      expect(closed.json().fanout).toBe('started');
      await eventually(async () => receiver.received.length, (n) => n >= 1, 30_000);
      const [delivery] = receiver.received;
      expect(verifyWebhook(delivery!.body, delivery!.headers, secret).ok).toBe(true);
      expect(eventEnvelope('tickets.closed').strict().parse(JSON.parse(delivery!.body))).toMatchObject({
        id: closed.json().events[0].id,
        guildId,
        data: { closedBy: opener, closeType: 'request', closeReason: 'Done here?' },
      });
    } finally {
      await receiver.close();
    }
  });
});
