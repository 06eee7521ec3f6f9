import { describe, expect, it } from 'vitest';
import { findTicket } from '../../db/tickets/tickets.js';
import { ticketCloseWorkflowId } from '../../src/tickets/ids.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { addTestMember, snowflake } from '../harness/fixtures.js';
import { ticketRequests } from '../harness/tickets.js';
import { consoleClient, errorCodeOf, fieldErrorOf } from './consoleClient.js';
import { featureOff, ticketGuild } from './ticketBed.js';

const NOW = new Date('2026-11-30T12:00:00.000Z');
// Closes start their workflow on a task queue nobody polls: the start is what the console owes, as the API's route.
const { db, app, gateway } = useApiTestBed({ now: NOW, temporal: true, env: { CONSOLE_SIGN_IN_LIMIT: '1000' } });
const { open, message, close, auditRows, snapshot } = ticketRequests(db, app, NOW);

async function signedIn() {
  const guild = await ticketGuild(db());
  const client = consoleClient(app.baseUrl);
  await client.signIn(guild.managerId);
  return { guild, client, path: `/console/servers/${guild.id}/tickets` };
}

const ticketNosOn = (html: string) => [...html.matchAll(/data-ticket-no="(\d+)"/g)].map((m) => Number(m[1]));

describe('the tickets list', () => {
  it('lists tickets newest first with the opener by name, filters by status and pages with an older link', async () => {
    const { guild, client, path } = await signedIn();
    const olga = await addTestMember(db(), guild, { username: 'olga' });
    for (let i = 0; i < 26; i++) await open(guild, { userId: olga, subject: `Question ${i + 1}` });
    await close(guild, 26);
    await close(guild, 1);

    const first = await client.get(path);
    expect(first.status).toBe(200);
    expect(ticketNosOn(first.text)).toEqual(Array.from({ length: 25 }, (_, i) => 26 - i));
    expect(first.text).toContain('<td>olga</td>');
    expect(first.text).toContain('Question 26');
    const older = /href="([^"]+)" rel="next">Older tickets/.exec(first.text)![1]!.replaceAll('&amp;', '&');
    expect(ticketNosOn((await client.get(older)).text)).toEqual([1]);

    const closed = await client.get(`${path}?status=closed`);
    expect(ticketNosOn(closed.text)).toEqual([26, 1]);
    expect(ticketNosOn((await client.get(`${path}?status=active`)).text)).toEqual(Array.from({ length: 24 }, (_, i) => 25 - i));
  });

  it('says what to do when there is no ticket yet', async () => {
    const { client, path } = await signedIn();
    const res = await client.get(path);
    expect(res.text).toContain('data-empty="tickets"');
    expect(res.text).toContain('Post a ticket panel');
  });

  it.each([
    ['an unknown status', '?status=lost'],
    ['a cursor that is no ticket number', '?before=abc'],
  ])('refuses %s 400 INVALID_INPUT', async (_, query) => {
    const { client, path } = await signedIn();
    const res = await client.get(`${path}${query}`);
    expect([res.status, errorCodeOf(res)]).toEqual([400, 'INVALID_INPUT']);
  });

  it('says the feature is off instead of a refusal, and refuses its actions 409 FEATURE_DISABLED, changing nothing', async () => {
    const { guild, client, path } = await signedIn();
    const { ticketNo } = await open(guild);
    await client.get(`${path}/${ticketNo}/close`);
    await featureOff(db(), guild.id, 'tickets');
    const page = await client.get(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-feature-off="tickets"');
    const before = await snapshot(guild.id);
    const res = await client.post(`${path}/${ticketNo}/close`, { 'close-reason': 'x' });
    expect([res.status, errorCodeOf(res)]).toEqual([409, 'FEATURE_DISABLED']);
    expect(await snapshot(guild.id)).toEqual(before);
    // The page offers the overview's switch, which comes back here with the feature on.
    const on = await client.post(`/console/servers/${guild.id}/overview/features/tickets`, { on: 'true', then: 'tickets' });
    expect([on.status, on.headers.location]).toEqual([303, path]);
    expect((await client.get(path)).text).not.toContain('data-feature-off');
  });
});

describe('a ticket and its transcript', () => {
  it("shows a ticket's answers and who opened it, and a closed ticket's transcript oldest first with the authors by name", async () => {
    const { guild, client, path } = await signedIn();
    const olga = await addTestMember(db(), guild, { username: 'olga' });
    const staff = await addTestMember(db(), guild, { username: 'sam' });
    const { ticketNo } = await open(guild, { userId: olga, subject: 'Refund', answers: [{ fieldId: 'order', label: 'Order number', value: 'A-1234' }] });
    await message(guild, ticketNo, { authorId: olga, content: 'my order is late' });
    await message(guild, ticketNo, { authorId: staff, content: 'looking into it' });

    const openPage = await client.get(`${path}/${ticketNo}`);
    expect(openPage.status).toBe(200);
    expect(openPage.text).toContain('Ticket #1: Refund');
    expect(openPage.text).toContain('<dd>A-1234</dd>');
    expect(openPage.text).toContain('Close this ticket…');
    expect(openPage.text).not.toContain('Read the transcript');
    expect([(await client.get(`${path}/${ticketNo}/transcript`)).status]).toEqual([404]);

    await close(guild, ticketNo, { closedBy: staff, reason: 'sorted' });
    const closedPage = await client.get(`${path}/${ticketNo}`);
    expect(closedPage.text).toContain('by sam (manual): sorted');
    const transcript = await client.get(`${path}/${ticketNo}/transcript`);
    expect(transcript.status).toBe(200);
    expect([...transcript.text.matchAll(/<tr data-message-id="\d+"><td>.*?<\/td><td>([^<]+)<\/td><td>([^<]+)/g)].map((m) => [m[1], m[2]])).toEqual([
      ['olga', 'my order is late'],
      ['sam', 'looking into it'],
    ]);
  });

  it("answers 404 TICKET_NOT_FOUND for another server's ticket number and for a number the server never had", async () => {
    const { client, path } = await signedIn();
    const other = await ticketGuild(db());
    const { ticketNo } = await open(other);
    for (const p of [`${path}/${ticketNo}`, `${path}/${ticketNo}/close`, `${path}/999`]) {
      const res = await client.get(p);
      expect([p, res.status, errorCodeOf(res)]).toEqual([p, 404, 'TICKET_NOT_FOUND']);
    }
  });
});

describe('closing a ticket from the dashboard', () => {
  it("closes through the API's close use case after a confirmation: closed at once, the console user audited, tickets.closed, the close workflow started", async () => {
    const { guild, client, path } = await signedIn();
    const olga = await addTestMember(db(), guild, { username: 'olga' });
    const { ticketNo } = await open(guild, { userId: olga });
    await message(guild, ticketNo, { authorId: olga, content: 'hello?' });

    const confirm = await client.get(`${path}/${ticketNo}/close`);
    expect(confirm.text).toContain('Close ticket #1?');
    expect(confirm.text).toContain('The ticket of olga is closed at once');
    const res = await client.post(`${path}/${ticketNo}/close`, { 'close-reason': 'Answered by phone.' });
    expect([res.status, res.headers.location]).toEqual([303, `${path}/${ticketNo}`]);

    expect(await findTicket(db(), guild.id, ticketNo)).toMatchObject({
      status: 'closed',
      closedBy: null,
      closeType: 'manual',
      closeReason: 'Answered by phone.',
      closedAt: NOW,
      closeApplying: true,
      transcriptTotal: 1,
    });
    const [, audit] = await auditRows(guild.id);
    expect(audit).toMatchObject({ actor_type: 'console_user', actor_id: guild.managerId, action: 'tickets.close', target_id: String(ticketNo), data: { reason: 'Answered by phone.' } });
    const events = await db().selectFrom('events').select('data').where('guild_id', '=', guild.id).where('type', '=', 'tickets.closed').execute();
    expect(events).toEqual([{ data: expect.objectContaining({ ticketNo, closeReason: 'Answered by phone.', closeType: 'manual' }) }]);
    const run = await gateway.client.workflow.getHandle(ticketCloseWorkflowId(guild.id, ticketNo)).describe();
    expect([run.type, run.status.name]).toEqual(['ticketClose', 'RUNNING']);
    const row = await db().selectFrom('tickets').select('close_workflow_started_at').where('guild_id', '=', guild.id).where('ticket_no', '=', ticketNo).executeTakeFirstOrThrow();
    expect(row.close_workflow_started_at).toEqual(NOW);

    const page = await client.get(`${path}/${ticketNo}`);
    expect(page.text).toContain('data-closing');
    expect(page.text).not.toContain('Close this ticket…');
  });

  it('keeps a reason that is too long on the form (400 INVALID_INPUT, the field named) and closes nothing', async () => {
    const { guild, client, path } = await signedIn();
    const { ticketNo } = await open(guild);
    await client.get(`${path}/${ticketNo}/close`);
    const before = await snapshot(guild.id);
    const long = 'x'.repeat(1001);
    const res = await client.post(`${path}/${ticketNo}/close`, { 'close-reason': long });
    expect([res.status, /data-error="([A-Z_]+)"/.exec(res.text)?.[1]]).toEqual([400, 'INVALID_INPUT']);
    expect(fieldErrorOf(res.text, 'close-reason')).toBe('Give a reason of at most 1,000 characters, without control characters.');
    expect(res.text).toContain(long);
    expect(await snapshot(guild.id)).toEqual(before);
  });

  it('refuses a ticket already closed 409 TICKET_ALREADY_CLOSED, changing nothing', async () => {
    const { guild, client, path } = await signedIn();
    const { ticketNo } = await open(guild);
    await client.get(`${path}/${ticketNo}/close`);
    await close(guild, ticketNo);
    const before = await snapshot(guild.id);
    const res = await client.post(`${path}/${ticketNo}/close`, { 'close-reason': '' });
    expect([res.status, errorCodeOf(res)]).toEqual([409, 'TICKET_ALREADY_CLOSED']);
    expect(await snapshot(guild.id)).toEqual(before);
  });

  it('is not repeated by sending the same form again: the second lands on the ticket', async () => {
    const { guild, client, path } = await signedIn();
    const { ticketNo } = await open(guild, { userId: snowflake() });
    await client.get(`${path}/${ticketNo}/close`);
    const token = client.state.forms.get(`${path}/${ticketNo}/close`)!;
    expect((await client.post(`${path}/${ticketNo}/close`, {}, { form: token })).status).toBe(303);
    const again = await client.post(`${path}/${ticketNo}/close`, {}, { form: token });
    expect([again.status, again.headers.location]).toEqual([303, `${path}/${ticketNo}`]);
    expect((await auditRows(guild.id)).filter((a) => a.action === 'tickets.close')).toHaveLength(1);
  });
});
