import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIMessage } from 'discord-api-types/v10';
import { applicationFormDialogId } from '../../src/applications/applicationButtons.js';
import { useTestDatabase } from '../harness/database.js';
import { createTestForm } from '../harness/applications.js';
import { startCommandBed, type CommandBed } from './commandBed.js';
import { auditActorsOf } from '../harness/rows.js';

// /ticket, the "Open a ticket about this message" menu and /apply end to end through the fake Discord.

const NOW = new Date('2026-11-29T12:00:00Z');
const database = useTestDatabase();
const db = () => database.db;
let t: CommandBed;

beforeAll(async () => {
  t = await startCommandBed(database, NOW, ['tickets', 'applications']);
});
afterAll(() => t?.bed.close());

const ticketsOf = (userId: string) =>
  db().selectFrom('tickets').select(['ticket_no', 'source', 'subject', 'panel_id', 'channel_id', 'answers']).where('guild_id', '=', t.server.id).where('user_id', '=', userId).execute();

describe('/ticket', () => {
  it('opens a ticket with source command and the subject, creates its channel, and names it in the answer', async () => {
    const me = t.member();
    const text = await t.answer({ userId: me, name: 'ticket', options: { subject: 'My order never came' } });
    const [ticket] = await ticketsOf(me);
    expect(ticket).toMatchObject({ source: 'command', subject: 'My order never came', panel_id: null, answers: [] });
    expect(ticket!.channel_id).toMatch(/^\d+$/);
    expect(t.bed.fake.state.guilds.get(t.server.id)!.channels.get(ticket!.channel_id!)).toMatchObject({ name: `ticket-${ticket!.ticket_no}` });
    expect(text).toBe(`Ticket #${ticket!.ticket_no} is open in <#${ticket!.channel_id}>. Staff will be with you shortly.`);
    const opened = await db().selectFrom('events').select('data').where('guild_id', '=', t.server.id).where('type', '=', 'tickets.opened').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(opened.data).toMatchObject({ ticketNo: ticket!.ticket_no, userId: me, source: 'command', subject: 'My order never came' });
    expect((await auditActorsOf(db(), t.server.id, 'tickets.open')).at(-1)).toEqual({ actor_type: 'member', actor_id: me });
  });

  it('with Tickets off answers so and opens nothing', async () => {
    const me = t.member();
    await t.setFeatures(['applications']);
    try {
      expect(await t.answer({ userId: me, name: 'ticket' })).toBe('Tickets is turned off on this server.');
    } finally {
      await t.setFeatures(['tickets', 'applications']);
    }
    expect(await ticketsOf(me)).toEqual([]);
  });
});

describe('"Open a ticket about this message"', () => {
  it('opens a ticket with source context_menu, the message linked in its subject and answers', async () => {
    const [me, author] = [t.member(), t.member()];
    const messageId = t.bed.fake.state.nextId();
    t.bed.fake.state.messages.set(messageId, {
      id: messageId,
      channel_id: t.server.channels.general,
      author: t.bed.fake.state.users.get(author)!,
      content: 'buy cheap followers at example.test',
      timestamp: NOW.toISOString(),
    } as APIMessage);
    const text = await t.answer({ userId: me, name: 'Open a ticket about this message', type: 3, targetId: messageId });
    const link = `https://discord.com/channels/${t.server.id}/${t.server.channels.general}/${messageId}`;
    const [ticket] = await ticketsOf(me);
    expect(ticket).toMatchObject({
      source: 'context_menu',
      subject: `About a message: ${link}`,
      answers: [
        { fieldId: 'message', label: 'Message', value: link },
        { fieldId: 'author', label: 'Author', value: `<@${author}>` },
        { fieldId: 'content', label: 'Text', value: 'buy cheap followers at example.test' },
      ],
    });
    expect(text).toBe(`Ticket #${ticket!.ticket_no} is open in <#${ticket!.channel_id}>. Staff will be with you shortly.`);
  });
});

describe('/apply', () => {
  it("suggests the open forms, then shows the chosen form's dialog as the panel button does", async () => {
    const form = await createTestForm(db(), t.server.id, { title: 'Moderator application' });
    await createTestForm(db(), t.server.id, { title: 'Closed form', open: false });
    const me = t.member();
    expect(await t.suggestions({ userId: me, name: 'apply', options: { form: 'mod' }, focused: 'form' })).toEqual([{ name: 'Moderator application', value: String(form.id) }]);
    const payload = await t.use({ userId: me, name: 'apply', options: { form: String(form.id) } });
    expect(t.bed.answersTo(payload.token).map((a) => a.body)).toEqual([
      {
        type: 9,
        data: {
          custom_id: applicationFormDialogId(form.id),
          title: 'Moderator application',
          components: [
            { type: 1, components: [{ type: 4, custom_id: 'age', label: 'How old are you?', style: 1, required: true }] },
            { type: 1, components: [{ type: 4, custom_id: 'why', label: 'Why do you want to join the staff?', style: 2, required: true }] },
          ],
        },
      },
    ]);
  });

  it('answers an unknown form in words, and with Applications off says so', async () => {
    const me = t.member();
    expect(await t.answer({ userId: me, name: 'apply', options: { form: 'No such form' } })).toBe('There is no such application form.');
    await t.setFeatures(['tickets']);
    try {
      expect(await t.answer({ userId: me, name: 'apply', options: { form: '1' } })).toBe('Applications is turned off on this server.');
    } finally {
      await t.setFeatures(['tickets', 'applications']);
    }
  });
});
