import { describe, expect, it } from 'vitest';
import { saveApplicationPanel } from '../../db/applications/panels.js';
import { insertEvent } from '../../db/shared/events.js';
import { insertEndpoint } from '../../db/webhooks/webhooks.js';
import { fileTestAppeal } from '../harness/appeals.js';
import { createTestForm, fileTestSubmission } from '../harness/applications.js';
import { saveTicketPanel } from '../../db/tickets/panels.js';
import { closeTicket } from '../../src/tickets/closeTicket.js';
import { openTicket } from '../../src/tickets/openTicket.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { createTestKey } from '../harness/fixtures.js';
import { consoleClient, errorCodeOf, managedGuild } from './consoleClient.js';

const { database, app } = useApiTestBed({ temporal: true, env: { CONSOLE_SIGN_IN_LIMIT: '1000' } });

/** Every page and action of a server, with the ids of that server's own records. */
async function serverRoutes() {
  const guild = await managedGuild(database.db);
  const key = await createTestKey(database.db, guild);
  const endpoint = await insertEndpoint(database.db, { guildId: guild.id, url: 'https://hooks.example.com/z', events: [], secret: 'whsec_z' });
  const disabled = await insertEndpoint(database.db, { guildId: guild.id, url: 'https://hooks.example.com/off', events: ['members.left'], secret: 'whsec_off' });
  await database.db.updateTable('webhook_endpoints').set({ enabled: false, disabled_reason: 'manual' }).where('id', '=', disabled.id).execute();
  const event = await insertEvent(database.db, { type: 'members.joined', guildId: guild.id, createdAt: new Date(), data: {} });
  // Failed, so its page offers the retry form.
  const delivery = await database.db.updateTable('webhook_deliveries').set({ status: 'failed' }).where('event_id', '=', event.id).returning('id').executeTakeFirstOrThrow();
  const s = `/console/servers/${guild.id}`;
  const e = `${s}/webhooks/${endpoint.id}`;
  const t = await ticketRecords(guild.id);
  const form = await createTestForm(database.db, guild.id);
  const { number: submission } = await fileTestSubmission(database.db, guild.id, { form, userId: guild.memberId, at: new Date() });
  const appPanel = 1;
  await saveApplicationPanel(database.db, { guildId: guild.id, panelId: appPanel, channelId: '100000000000000002', text: 'Apply', formIds: null, message: null, posts: 0, updatedAt: new Date() });
  const { number: appeal } = await fileTestAppeal(database.db, guild.id, { userId: '100000000000000003', at: new Date() });
  const pages = [
    s,
    `${s}/overview`,
    `${s}/levels`,
    `${s}/keys`,
    `${s}/keys/${key.id}/revoke`,
    `${s}/webhooks`,
    ...['', '/edit', '/rotate-secret', '/secret', '/test', '/disable', '/remove', '/recover', '/deliveries'].map((p) => `${e}${p}`),
    `${s}/deliveries`,
    `${s}/deliveries/${delivery.id}`,
    `${s}/audit`,
    `${s}/tickets`,
    `${s}/tickets/${t.open}`,
    `${s}/tickets/${t.open}/close`,
    `${s}/tickets/${t.closed}/transcript`,
    `${s}/tickets/panels`,
    `${s}/tickets/panels/new`,
    `${s}/tickets/panels/${t.panel}`,
    `${s}/applications`,
    `${s}/applications/${submission}`,
    `${s}/appeals`,
    `${s}/appeals/${appeal}`,
    `${s}/applications/forms`,
    `${s}/applications/forms/new`,
    `${s}/applications/forms/${form.id}`,
    `${s}/applications/panels`,
    `${s}/applications/panels/new`,
    `${s}/applications/panels/${appPanel}`,
  ];
  const actions: Array<[string, Record<string, string>]> = [
    [`${s}/overview/features/levels`, { on: 'false' }],
    [`${s}/levels/settings`, { announceTo: 'dm', 'announce-message': 'GG {user}' }],
    [`${s}/keys`, { name: 'x', scopes: 'guild:read' }],
    [`${s}/keys/${key.id}/revoke`, {}],
    [`${s}/webhooks`, { url: 'https://hooks.example.com/new' }],
    [`${e}/edit`, { url: 'https://hooks.example.com/edited' }],
    [`${e}/rotate-secret`, { overlap: 'now' }],
    [`${e}/test`, { type: 'webhook.test' }],
    [`${e}/recover`, { since: '2026-01-01T00:00' }],
    ...['disable', 'remove'].map((a): [string, Record<string, string>] => [`${e}/${a}`, {}]),
    [`${s}/webhooks/${disabled.id}/enable`, {}],
    [`${s}/deliveries/${delivery.id}/retry`, {}],
    [`${s}/tickets/${t.open}/close`, { 'close-reason': 'x' }],
    [`${s}/tickets/panels`, { 'panel-text': 'x', 'panel-label': 'y' }],
    [`${s}/tickets/panels/${t.panel}`, { 'panel-text': 'x', 'panel-label': 'y' }],
    [`${s}/tickets/settings`, { 'ticket-transcripts': 'on' }],
    [`${s}/applications/${submission}/decision`, { decision: 'accepted' }],
    [`${s}/appeals/${appeal}/decision`, { 'appeal-verb': 'approve', 'appeal-reason': 'x' }],
    [`${s}/applications/forms`, { 'form-title': 'x', 'question-0-label': 'y', 'question-0-type': 'short' }],
    [`${s}/applications/forms/${form.id}`, { 'form-title': 'x', 'question-0-label': 'y', 'question-0-type': 'short' }],
    [`${s}/applications/panels`, { 'app-panel-text': 'x' }],
    [`${s}/applications/panels/${appPanel}`, { 'app-panel-text': 'x' }],
  ];
  // Every action's form carries a one-time token (api/console/formFlow.ts submitOnce).
  return { guild, key, endpoint, pages, actions: actions.map(([path, fields]): [string, Record<string, string>, boolean] => [path, fields, true]) };
}

/** An open ticket, a closed one with its transcript, and a ticket panel of the server. */
async function ticketRecords(guildId: string) {
  const at = new Date();
  const opening = { guildId, userId: '100000000000000001', panel: null, subject: null, source: 'panel' as const, isThread: false, channelId: null, answers: [], at, actor: { type: 'system' as const } };
  const { open, closed } = await database.db.transaction().execute(async (trx) => ({ open: (await openTicket(trx, opening)).ticketNo, closed: (await openTicket(trx, opening)).ticketNo }));
  await database.db
    .transaction()
    .execute((trx) => closeTicket(trx, { guildId, ticketNo: closed, closedBy: null, closeType: 'manual', reason: null, messageContent: true, at, actor: { type: 'system' } }));
  const panel = { guildId, panelId: 1, channelId: '100000000000000002', title: null, text: 'Help', buttonLabel: 'Open', categoryId: null, staffRoleIds: [], message: null, posts: 0, updatedAt: at };
  await saveTicketPanel(database.db, panel);
  return { open, closed, panel: panel.panelId };
}

const snapshot = async (guildId: string) => ({
  features: await database.db.selectFrom('guilds').select('features').where('id', '=', guildId).execute(),
  levelSettings: await database.db.selectFrom('level_settings').selectAll().where('guild_id', '=', guildId).execute(),
  tickets: await database.db.selectFrom('tickets').select(['ticket_no', 'status', 'close_reason']).where('guild_id', '=', guildId).orderBy('ticket_no').execute(),
  ticketPanels: await database.db.selectFrom('ticket_panels').selectAll().where('guild_id', '=', guildId).execute(),
  ticketSettings: await database.db.selectFrom('ticket_settings').selectAll().where('guild_id', '=', guildId).execute(),
  appeals: await database.db.selectFrom('appeals').select(['number', 'status', 'decided_by', 'applying']).where('guild_id', '=', guildId).execute(),
  appealMessages: await database.db.selectFrom('appeal_messages').select('id').where('guild_id', '=', guildId).execute(),
  applicationForms: await database.db.selectFrom('application_forms').selectAll().where('guild_id', '=', guildId).execute(),
  applicationPanels: await database.db.selectFrom('application_panels').selectAll().where('guild_id', '=', guildId).execute(),
  submissions: await database.db.selectFrom('application_submissions').select(['number', 'status', 'decided_by']).where('guild_id', '=', guildId).execute(),
  messages: await database.db.selectFrom('platform_messages').select('id').where('guild_id', '=', guildId).execute(),
  keys: await database.db.selectFrom('api_keys').select(['id', 'revoked_at']).where('guild_id', '=', guildId).execute(),
  endpoints: await database.db
    .selectFrom('webhook_endpoints')
    .select(['id', 'url', 'events', 'description', 'secret', 'previous_secret', 'enabled', 'removed_at'])
    .where('guild_id', '=', guildId)
    .execute(),
  deliveries: await database.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select(['d.id', 'd.status', 'd.retry_requested_at'])
    .where('e.guild_id', '=', guildId)
    .execute(),
  events: await database.db.selectFrom('events').select('id').where('guild_id', '=', guildId).execute(),
  audit: await database.db.selectFrom('audit_log').select('id').where('guild_id', '=', guildId).execute(),
});

describe('every console route of a server', () => {
  it('sends a visitor without a session to sign in (pages) or refuses 401 (actions), changing nothing', async () => {
    const { guild, pages, actions } = await serverRoutes();
    const before = await snapshot(guild.id);
    const anonymous = consoleClient(app.baseUrl);
    for (const path of pages) {
      const res = await anonymous.get(path);
      expect([path, res.status, res.headers.location]).toEqual([path, 302, '/console/sign-in']);
    }
    for (const [path, fields] of actions) {
      const res = await anonymous.post(path, fields, { csrf: null });
      expect([path, res.status, errorCodeOf(res)]).toEqual([path, 401, 'SIGN_IN_REQUIRED']);
    }
    expect(await snapshot(guild.id)).toEqual(before);
  });

  it('refuses a member without Manage Server 403 on every page and action, even with a valid CSRF token, changing nothing', async () => {
    const { guild, pages, actions } = await serverRoutes();
    const before = await snapshot(guild.id);
    const member = consoleClient(app.baseUrl);
    await member.signIn(guild.memberId);
    for (const path of pages) {
      const res = await member.get(path);
      expect([path, res.status, errorCodeOf(res)]).toEqual([path, 403, 'NOT_A_SERVER_MANAGER']);
    }
    for (const [path, fields] of actions) {
      const res = await member.post(path, fields);
      expect([path, res.status, errorCodeOf(res)]).toEqual([path, 403, 'NOT_A_SERVER_MANAGER']);
    }
    expect(await snapshot(guild.id)).toEqual(before);
  });

  it('refuses a manager of another server 403 on every page and action of this one, changing nothing', async () => {
    const { guild, pages, actions } = await serverRoutes();
    const other = await managedGuild(database.db, 'Elsewhere');
    const before = await snapshot(guild.id);
    const stranger = consoleClient(app.baseUrl);
    await stranger.signIn(other.managerId);
    for (const path of pages) expect([path, (await stranger.get(path)).status]).toEqual([path, 403]);
    for (const [path, fields] of actions) expect([path, (await stranger.post(path, fields)).status]).toEqual([path, 403]);
    expect(await snapshot(guild.id)).toEqual(before);
  });

  it('refuses every once-only action of a manager without its form token 400 FORM_TOKEN_INVALID, changing nothing', async () => {
    const { guild, pages, actions } = await serverRoutes();
    const manager = consoleClient(app.baseUrl);
    await manager.signIn(guild.managerId); // audited (console.signIn): the snapshot starts after it
    const before = await snapshot(guild.id);
    for (const path of pages) await manager.get(path);
    const once = actions.filter(([, , onceOnly]) => onceOnly);
    expect(once).toHaveLength(actions.length);
    for (const [path, fields] of once) {
      expect(manager.state.forms.get(path), `${path} has a form`).toBeDefined();
      const res = await manager.post(path, fields, { form: null });
      expect([path, res.status, errorCodeOf(res)]).toEqual([path, 400, 'FORM_TOKEN_INVALID']);
    }
    expect(await snapshot(guild.id)).toEqual(before);
  });

  it('refuses every action of a manager without the CSRF token 403, changing nothing', async () => {
    const { guild, actions } = await serverRoutes();
    const manager = consoleClient(app.baseUrl);
    await manager.signIn(guild.managerId); // audited (console.signIn): the snapshot starts after it
    const before = await snapshot(guild.id);
    for (const [path, fields] of actions) {
      const res = await manager.post(path, fields, { csrf: null });
      expect([path, res.status, errorCodeOf(res)]).toEqual([path, 403, 'CSRF_TOKEN_INVALID']);
    }
    expect(await snapshot(guild.id)).toEqual(before);
  });
});
