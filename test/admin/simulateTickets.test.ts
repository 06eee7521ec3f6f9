import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { eventEnvelope } from '../../src/events/contract.js';
import { verifyWebhook } from '../../src/webhooks/verifyWebhook.js';
import { eventually } from '../harness/eventually.js';
import { snowflake } from '../harness/fixtures.js';
import { startReceiver } from '../harness/receiver.js';
import { testGateway, useTestWorker } from '../harness/temporal.js';
import { setTicketTranscripts } from '../../db/tickets/closes.js';
import { cli, cliGuild } from './cli.js';
import { useSimulateBed } from './simulateBed.js';

const NOW = new Date('2026-11-24T10:00:00Z');
const { database, admin, eventsOf, auditOf } = useSimulateBed(NOW);
/** A guild with the given features and `count` human members (added with `member add`). */
async function guildWithMembers(run: typeof admin, features: string, count = 2) {
  const { id } = await cliGuild(run, { features });
  const users: string[] = [];
  for (let i = 0; i < count; i++) {
    const user = snowflake();
    expect((await run('member', 'add', '--guild', id, '--user', user)).code).toBe(0);
    users.push(user);
  }
  return { id, users, user: users[0]! };
}
const ticketRow = (guildId: string, ticketNo: number) =>
  database.db.selectFrom('tickets').selectAll().where('guild_id', '=', guildId).where('ticket_no', '=', ticketNo).executeTakeFirstOrThrow();

describe('simulate ticket-open', () => {
  it('opens a numbered ticket with its answers, audit row and tickets.opened (JSON)', async () => {
    const { id, user } = await guildWithMembers(admin, 'all', 1);
    const channel = snowflake();
    const answers = [{ fieldId: 'order', label: 'Order number', value: 'A-17' }, { label: 'Details', value: 'Late parcel' }];
    const res = await admin(
      'simulate', 'ticket-open', '--guild', id, '--user', user, '--panel', '3', '--panel-title', 'Orders', '--subject', 'Late order',
      '--answers', JSON.stringify(answers), '--channel', channel, '--json',
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const data = { ticketNo: 1, userId: user, panelId: 3, subject: 'Late order', source: 'panel', channelId: channel, isThread: false, openedAt: NOW.toISOString() };
    expect(res.json()).toEqual({ ...data, events: [{ id: expect.stringMatching(/^evt_/), type: 'tickets.opened', createdAt: NOW.toISOString(), data }], fanout: 'relay' });
    expect(await eventsOf(id, 'tickets.opened')).toEqual([{ id: res.json().events[0].id, createdAt: NOW, data }]);
    expect(await ticketRow(id, 1)).toMatchObject({
      status: 'open',
      user_id: user,
      panel_id: 3,
      panel_title: 'Orders',
      answers: [{ fieldId: 'order', label: 'Order number', value: 'A-17' }, { fieldId: null, label: 'Details', value: 'Late parcel' }],
      is_thread: false,
      opened_at: NOW,
    });
    expect(await auditOf(id, 'tickets.open')).toMatchObject([{ actor_type: 'operator', actor_id: 'alice', target_type: 'ticket', target_id: '1' }]);

    const second = await admin('simulate', 'ticket-open', '--guild', id, '--user', user, '--thread');
    expect(second.code).toBe(0);
    expect(second.stdout.split('\n')[0]).toBe(`User ${user} opened ticket 2 in guild ${id} (thread).`);
    expect(await ticketRow(id, 2)).toMatchObject({ source: 'command', is_thread: true, panel_id: null, channel_id: null });
  });

  it('refuses a guild without Tickets (exit 1) and bad flags (exit 2), writing nothing', async () => {
    const { id, user: member } = await guildWithMembers(admin, 'bank', 1);
    const off = await admin('simulate', 'ticket-open', '--guild', id, '--user', member, '--json');
    expect(off.code).toBe(1);
    expect(off.error()).toEqual({ error: 'FEATURE_DISABLED', message: expect.stringContaining('Tickets') });
    const on = await guildWithMembers(admin, 'all', 1);
    for (const extra of [['--source', 'web'], ['--panel', '0'], ['--panel-title', 'x'], ['--answers', '[{"label":""}]'], ['--answers', 'nope'], ['--channel', '12']]) {
      const res = await admin('simulate', 'ticket-open', '--guild', on.id, '--user', on.users[0]!, ...extra);
      expect(res.code, extra.join(' ')).toBe(2);
    }
    const unknown = await admin('simulate', 'ticket-open', '--guild', snowflake(), '--user', snowflake(), '--json');
    expect(unknown.code).toBe(1);
    expect(unknown.error().error).toBe('GUILD_NOT_FOUND');
    const stranger = await admin('simulate', 'ticket-open', '--guild', on.id, '--user', snowflake(), '--json');
    expect(stranger.code).toBe(1);
    expect(stranger.error().error).toBe('MEMBER_NOT_FOUND');
    const botUser = snowflake();
    await admin('member', 'add', '--guild', on.id, '--user', botUser, '--bot');
    const bot = await admin('simulate', 'ticket-open', '--guild', on.id, '--user', botUser, '--json');
    expect(bot.code).toBe(1);
    expect(bot.error().error).toBe('BOT_ACCOUNT');
    const count = await database.db.selectFrom('tickets').select((eb) => eb.fn.countAll<string>().as('n')).where('guild_id', 'in', [id, on.id]).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });
});

describe('simulate ticket-message, ticket-claim, ticket-close', () => {
  it('stores messages for the transcript, claims, closes with the transcript and tickets.closed', async () => {
    const { id, user } = await guildWithMembers(admin, 'all', 1);
    const staff = snowflake();
    expect((await admin('simulate', 'ticket-open', '--guild', id, '--user', user)).code).toBe(0);
    const m1 = await admin('simulate', 'ticket-message', '--guild', id, '--ticket', '1', '--author', user, '--content', 'Help please', '--json');
    expect(m1.stderr).toBe('');
    expect(m1.json()).toEqual({ ticketNo: 1, messageId: expect.stringMatching(/^\d{17,20}$/), stored: true, side: 'user', reopened: false });
    const m2 = await admin(
      'simulate', 'ticket-message', '--guild', id, '--ticket', '1', '--author', staff, '--content', 'On it', '--reply', m1.json().messageId,
      '--embeds', '[{"title":"Order","fields":[{"name":"Status","value":"late"}]}]', '--attachments', '[{"name":"log.txt","size":12}]',
      '--stickers', 'wave,ok', '--json',
    );
    expect(m2.json()).toMatchObject({ stored: true, side: 'staff' });
    const sys = await admin('simulate', 'ticket-message', '--guild', id, '--ticket', '1', '--system', '--content', 'Ticket claimed', '--json');
    expect(sys.json()).toMatchObject({ stored: true, side: null });
    const again = await admin('simulate', 'ticket-message', '--guild', id, '--ticket', '1', '--author', user, '--id', m1.json().messageId, '--json');
    expect(again.json()).toMatchObject({ stored: false });

    const claim = await admin('simulate', 'ticket-claim', '--guild', id, '--ticket', '1', '--staff', staff, '--json');
    expect(claim.json()).toEqual({ ticketNo: 1, claimedBy: staff, previousClaimedBy: null });
    expect(await auditOf(id, 'tickets.claim')).toHaveLength(1);

    const close = await admin('simulate', 'ticket-close', '--guild', id, '--ticket', '1', '--by', staff, '--reason', 'Solved', '--json');
    expect(close.stderr).toBe('');
    const data = { ticketNo: 1, userId: user, closedBy: staff, closeReason: 'Solved', closeType: 'manual', hasTranscript: true, closedAt: NOW.toISOString() };
    expect(close.json()).toMatchObject({ hasTranscript: true, events: [{ type: 'tickets.closed', data }] });
    expect(await eventsOf(id, 'tickets.closed')).toEqual([{ id: close.json().events[0].id, createdAt: NOW, data }]);
    expect(await ticketRow(id, 1)).toMatchObject({
      status: 'closed',
      claimed_by: staff,
      user_messages: 1,
      staff_messages: 1,
      first_response_by: staff,
      close_type: 'manual',
      transcript_total: 3,
      transcript_users: { [user]: { messages: 1 }, [staff]: { messages: 1 } },
      transcript_message_content: true,
    });
    const messages = await database.db.selectFrom('ticket_messages').selectAll().where('guild_id', '=', id).orderBy('message_id').execute();
    expect(messages[1]).toMatchObject({
      reply_to: m1.json().messageId,
      embeds: [{ title: 'Order', description: null, fields: [{ name: 'Status', value: 'late' }] }],
      attachments: [{ name: 'log.txt', size: 12, contentType: null }],
      stickers: ['wave', 'ok'],
    });

    // A closed ticket takes no message, claim or second close (exit 1), and nothing changes.
    for (const args of [
      ['ticket-message', '--author', user],
      ['ticket-claim', '--staff', staff],
      ['ticket-close'],
    ]) {
      const res = await admin('simulate', args[0]!, '--guild', id, '--ticket', '1', ...args.slice(1), '--json');
      expect(res.code, args[0]).toBe(1);
      expect(res.error().error, args[0]).toBe('TICKET_CLOSED');
    }
    const missing = await admin('simulate', 'ticket-close', '--guild', id, '--ticket', '9', '--json');
    expect(missing.error().error).toBe('TICKET_NOT_FOUND');
    expect(await eventsOf(id, 'tickets.closed')).toHaveLength(1);
  });

  it('closes as the bot with a closeType and without a transcript when transcripts are off', async () => {
    const { id, user } = await guildWithMembers(admin, 'all', 1);
    expect((await admin('simulate', 'ticket-open', '--guild', id, '--user', user)).code).toBe(0);
    await setTicketTranscripts(database.db, id, false);
    const res = await admin('simulate', 'ticket-close', '--guild', id, '--ticket', '1', '--close-type', 'user_leave', '--json');
    expect(res.json()).toMatchObject({ closedBy: null, closeType: 'user_leave', hasTranscript: false });
    expect(await ticketRow(id, 1)).toMatchObject({ closed_by: null, close_type: 'user_leave', transcript_generated_at: null });
    const bad = await admin('simulate', 'ticket-close', '--guild', id, '--ticket', '1', '--close-type', 'api');
    expect(bad.code).toBe(2);
  });

  it('refuses bad message flags with exit 2', async () => {
    const { id, user } = await guildWithMembers(admin, 'all', 1);
    expect((await admin('simulate', 'ticket-open', '--guild', id, '--user', user)).code).toBe(0);
    for (const extra of [[], ['--author', '1'], ['--author', snowflake(), '--embeds', '{}'], ['--author', snowflake(), '--attachments', '[{"name":"x"}]']]) {
      const res = await admin('simulate', 'ticket-message', '--guild', id, '--ticket', '1', ...extra);
      expect(res.code, extra.join(' ')).toBe(2);
    }
    expect((await admin('simulate', 'ticket-message', '--guild', id, '--ticket', 'x', '--system')).code).toBe(2);
  });

  it('lists the ticket commands in simulate --help', async () => {
    const res = await admin('simulate', '--help');
    for (const name of ['ticket-open', 'ticket-message', 'ticket-claim', 'ticket-close']) expect(res.stdout).toContain(`simulate ${name}`);
  });
});

describe('simulated ticket events, through to a webhook receiver', () => {
  const gateway = testGateway();
  useTestWorker(() => database.db, gateway);
  const live = cli(() => database.db, systemClock, { temporal: gateway, allowInsecureWebhookUrls: true });

  it('delivers tickets.opened and tickets.closed, signed', async () => {
    const receiver = await startReceiver([200]);
    try {
      const { id, user } = await guildWithMembers(live, 'all', 1);
      const added = await live('webhook', 'add', '--guild', id, '--url', receiver.url, '--events', 'tickets.opened,tickets.closed', '--json');
      expect(added.stderr).toBe('');
      const { secret } = added.json();
      const opened = await live('simulate', 'ticket-open', '--guild', id, '--user', user, '--json');
      expect(opened.json().fanout).toBe('started');
      const closed = await live('simulate', 'ticket-close', '--guild', id, '--ticket', '1', '--json');
      expect(closed.json().fanout).toBe('started');
      await eventually(async () => receiver.received.length, (n) => n >= 2);
      const bodies = receiver.received.map((r) => {
        expect(verifyWebhook(r.body, r.headers, secret).ok).toBe(true);
        return JSON.parse(r.body);
      });
      const byType = Object.fromEntries(bodies.map((b) => [b.type, b]));
      expect(eventEnvelope('tickets.opened').strict().parse(byType['tickets.opened'])).toEqual({
        id: opened.json().events[0].id,
        type: 'tickets.opened',
        createdAt: expect.any(String),
        guildId: id,
        data: opened.json().events[0].data,
      });
      expect(eventEnvelope('tickets.closed').strict().parse(byType['tickets.closed'])).toMatchObject({
        id: closed.json().events[0].id,
        guildId: id,
        data: closed.json().events[0].data,
      });
    } finally {
      await receiver.close();
    }
  });
});
