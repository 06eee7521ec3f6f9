import { describe, expect, it } from 'vitest';
import { findTicketSettings } from '../../db/tickets/closes.js';
import { findTicketPanel } from '../../db/tickets/panels.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { snowflake } from '../harness/fixtures.js';
import { consoleClient, fieldErrorOf } from './consoleClient.js';
import { ticketGuild } from './ticketBed.js';

const NOW = new Date('2026-11-30T12:00:00.000Z');
const { db, app } = useApiTestBed({ now: NOW, env: { CONSOLE_SIGN_IN_LIMIT: '1000' } });

async function signedIn() {
  const guild = await ticketGuild(db());
  const client = consoleClient(app.baseUrl);
  await client.signIn(guild.managerId);
  return { guild, client, path: `/console/servers/${guild.id}/tickets/panels` };
}

const messagesOf = (guildId: string) => db().selectFrom('platform_messages').select(['id', 'channel_id', 'content', 'buttons', 'edited_at']).where('guild_id', '=', guildId).orderBy('id').execute();
const auditOf = (guildId: string, action: string) =>
  db().selectFrom('audit_log').select(['actor_type', 'actor_id', 'target_id', 'data']).where('guild_id', '=', guildId).where('action', '=', action).orderBy('id').execute();
const state = async (guildId: string) => ({
  panels: await db().selectFrom('ticket_panels').selectAll().where('guild_id', '=', guildId).execute(),
  settings: await findTicketSettings(db(), guildId),
  messages: await messagesOf(guildId),
  audit: await db().selectFrom('audit_log').select('id').where('guild_id', '=', guildId).execute(),
});
const dataError = (html: string) => /data-error="([A-Z_]+)"/.exec(html)?.[1];

describe('ticket panels from the dashboard', () => {
  it('posts a new panel (its message with the open button), then edits the same message in place, each audited with the console user', async () => {
    const { guild, client, path } = await signedIn();
    expect((await client.get(path)).text).toContain('data-empty="panels"');
    const form = await client.get(`${path}/new`);
    expect(form.status).toBe(200);
    // Names, not ids: the text channels and the category by name, the voice channel not offered.
    expect(form.text).toContain('>#general</option>');
    expect(form.text).toContain('>Support (category)</option>');
    expect(form.text).not.toContain('Lounge');
    expect(form.text).toContain('@Staff');

    const posted = await client.post(path, {
      'panel-channel': guild.general,
      'panel-title': 'Support',
      'panel-text': 'Press the button to talk to staff.',
      'panel-label': 'Open a ticket',
      'panel-category': guild.category,
      'panel-staff-roles': guild.staffRole,
    });
    expect([posted.status, posted.headers.location]).toEqual([303, path]);
    const [message] = await messagesOf(guild.id);
    expect(message).toMatchObject({ channel_id: guild.general, content: '**Support**\nPress the button to talk to staff.', buttons: [{ id: 'ticket:open:1', label: 'Open a ticket' }] });
    expect(await findTicketPanel(db(), guild.id, 1)).toMatchObject({ categoryId: guild.category, staffRoleIds: [guild.staffRole], message: { messageId: String(message!.id) } });

    const list = await client.get(path);
    expect(list.text).toContain('data-panel-id="1"');
    expect(list.text).toContain('<td>#general</td>');
    expect(list.text).toContain('<td>@Staff</td>');
    const edit = await client.get(`${path}/1`);
    expect(edit.text).toContain('Press the button to talk to staff.</textarea>');
    const edited = await client.post(`${path}/1`, { 'panel-channel': guild.general, 'panel-title': '', 'panel-text': 'We answer within a day.', 'panel-label': 'Get help', 'panel-category': '' });
    expect(edited.status).toBe(303);
    expect(await messagesOf(guild.id)).toEqual([expect.objectContaining({ id: message!.id, content: 'We answer within a day.', buttons: [{ id: 'ticket:open:1', label: 'Get help' }], edited_at: expect.any(Date) })]);
    expect(await findTicketPanel(db(), guild.id, 1)).toMatchObject({ title: null, categoryId: null, staffRoleIds: [] });
    expect(await auditOf(guild.id, 'tickets.panel')).toEqual([
      expect.objectContaining({ actor_type: 'console_user', actor_id: guild.managerId, target_id: '1', data: expect.objectContaining({ outcome: 'posted' }) }),
      expect.objectContaining({ actor_type: 'console_user', actor_id: guild.managerId, data: expect.objectContaining({ outcome: 'edited' }) }),
    ]);

    // The next new panel takes the next number.
    await client.get(`${path}/new`);
    expect((await client.post(path, { 'panel-channel': guild.news, 'panel-text': 'Billing', 'panel-label': 'Open' })).status).toBe(303);
    expect(await findTicketPanel(db(), guild.id, 2)).toMatchObject({ channelId: guild.news });
  });

  it.each([
    ['no channel', { 'panel-channel': '' }, 'panel-channel', 'Pick a text channel of this server.'],
    ['a voice channel', { 'panel-channel': 'voice' }, 'panel-channel', 'Pick a text channel of this server.'],
    ['an empty text', { 'panel-text': '  ' }, 'panel-text', 'The panel text cannot be empty.'],
    ['a label of 81 characters', { 'panel-label': 'x'.repeat(81) }, 'panel-label', "The button label has 1 to 80 characters (Discord's limit); it has 81."],
    ['a title of 101 characters', { 'panel-title': 'x'.repeat(101) }, 'panel-title', 'The panel title has 1 to 100 characters.'],
    ['a role of no server', { 'panel-staff-roles': snowflake() }, 'panel-staff-roles', 'Pick roles of this server.'],
    ['a category that is a text channel', { 'panel-category': 'general' }, 'panel-category', 'Pick a category of this server, or none.'],
  ])('keeps the form with %s (400 INVALID_INPUT, the field named) and posts nothing', async (_, change, field, message) => {
    const { guild, client, path } = await signedIn();
    await client.get(`${path}/new`);
    const before = await state(guild.id);
    const named = Object.fromEntries(Object.entries(change).map(([k, v]) => [k, v === 'voice' ? guild.voice : v === 'general' ? guild.general : v]));
    const res = await client.post(path, { 'panel-channel': guild.general, 'panel-text': 'Help', 'panel-label': 'Open', ...named });
    expect([res.status, dataError(res.text)]).toEqual([400, 'INVALID_INPUT']);
    expect(fieldErrorOf(res.text, field)).toBe(message);
    expect(res.text).toContain('<title>Error: New ticket panel');
    expect(await state(guild.id)).toEqual(before);
  });

  it("answers 404 PANEL_NOT_FOUND for another server's panel, changing nothing", async () => {
    const { guild, client, path } = await signedIn();
    const other = await signedIn();
    await other.client.get(`${other.path}/new`);
    expect((await other.client.post(other.path, { 'panel-channel': other.guild.general, 'panel-text': 'Help', 'panel-label': 'Open' })).status).toBe(303);
    const before = await state(guild.id);
    expect((await client.get(`${path}/1`)).status).toBe(404);
    expect(dataError((await client.post(`${path}/1`, { 'panel-channel': guild.general, 'panel-text': 'x', 'panel-label': 'y' }, { form: 'x' })).text)).toBe('PANEL_NOT_FOUND');
    expect(await state(guild.id)).toEqual(before);
  });
});

describe('ticket settings from the dashboard', () => {
  it('sets the log channel and transcripts with an audit row of the change; saving unchanged writes nothing', async () => {
    const { guild, client, path } = await signedIn();
    const settingsPath = `/console/servers/${guild.id}/tickets/settings`;
    await client.get(path);
    const res = await client.post(settingsPath, { 'ticket-log-channel': guild.general });
    expect([res.status, res.headers.location]).toEqual([303, path]);
    expect(await findTicketSettings(db(), guild.id)).toEqual({ logChannelId: guild.general, transcripts: false });
    expect(await auditOf(guild.id, 'tickets.settings')).toEqual([
      expect.objectContaining({ actor_type: 'console_user', actor_id: guild.managerId, data: { before: { logChannelId: null, transcripts: true }, after: { logChannelId: guild.general, transcripts: false } } }),
    ]);
    const page = await client.get(path);
    expect(page.text).toMatch(new RegExp(`<option value="${guild.general}" selected>#general`));
    expect((await client.post(settingsPath, { 'ticket-log-channel': guild.general })).status).toBe(303);
    expect(await auditOf(guild.id, 'tickets.settings')).toHaveLength(1);
  });

  it('keeps a log channel that is not a text channel of the server on the form (400 INVALID_INPUT), changing nothing', async () => {
    const { guild, client, path } = await signedIn();
    await client.get(path);
    const before = await state(guild.id);
    const res = await client.post(`/console/servers/${guild.id}/tickets/settings`, { 'ticket-log-channel': guild.voice, 'ticket-transcripts': 'on' });
    expect([res.status, dataError(res.text)]).toEqual([400, 'INVALID_INPUT']);
    expect(fieldErrorOf(res.text, 'ticket-log-channel')).toBe('Pick a text channel of this server, or no log.');
    expect(await state(guild.id)).toEqual(before);
  });
});
