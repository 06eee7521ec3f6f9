import { describe, expect, it } from 'vitest';
import { saveApplicationPanel } from '../../db/applications/panels.js';
import { insertEvent } from '../../db/shared/events.js';
import { insertEndpoint } from '../../db/webhooks/webhooks.js';
import { fileTestAppeal } from '../harness/appeals.js';
import { createTestForm, fileTestSubmission } from '../harness/applications.js';
import { saveTicketPanel } from '../../db/tickets/panels.js';
import { GiveawayStartRequest } from '../../src/giveaways/contract.js';
import { createGiveaway } from '../../src/giveaways/createGiveaway.js';
import { insertItem } from '../../db/shop/items.js';
import { insertStore } from '../../db/shop/stores.js';
import { grantItem } from '../../src/shop/grantItem.js';
import { ITEM_DEFAULTS } from '../api/shop/shopBed.js';
import { addInviteMilestone } from '../../db/invites/milestones.js';
import { startInviteSeason } from '../../src/invites/seasons.js';
import { closeTicket } from '../../src/tickets/closeTicket.js';
import { insertFlowRun } from '../../db/flows/runs.js';
import { createFlow } from '../../src/flows/manageFlows.js';
import { insertCase } from '../../db/moderation/cases.js';
import { requestModAction } from '../../src/moderation/requestModAction.js';
import { openTicket } from '../../src/tickets/openTicket.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { createTestKey } from '../harness/fixtures.js';
import { newTestCase } from '../harness/modCases.js';
import { addLevelReward, saveLevelSettings } from '../../db/levels/members.js';
import { upsertPlatformChannels } from '../../db/platform/local.js';
import { requestXpChange } from '../../src/levels/requestXpChange.js';
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
  const shop = await shopRecords(guild.id, guild.memberId);
  const appPanel = 1;
  await saveApplicationPanel(database.db, { guildId: guild.id, panelId: appPanel, channelId: '100000000000000002', text: 'Apply', formIds: null, message: null, posts: 0, updatedAt: new Date() });
  const { number: appeal } = await fileTestAppeal(database.db, guild.id, { userId: '100000000000000003', at: new Date() });
  const g = await giveawayRecords(guild.id);
  const f = await flowRecords(guild.id);
  const i = await inviteRecords(guild.id, guild.managerRoleId);
  const m = await moderationRecords(guild.id, guild.managerId, guild.memberId);
  const lv = await levelRecords(guild);
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
    `${s}/bank`,
    `${s}/bank/members?member-q=member`,
    `${s}/bank/members/${guild.memberId}`,
    `${s}/giveaways`,
    `${s}/giveaways/new`,
    `${s}/giveaways/${g.active}`,
    `${s}/giveaways/${g.active}/end`,
    `${s}/giveaways/${g.ended}/reroll`,
    ...shopPages(s, shop),
    `${s}/flows`,
    ...['', '/disable', '/delete', '/definition'].map((p) => `${s}/flows/${f.flow}${p}`),
    `${s}/flows/${f.disabled}`,
    `${s}/flows/runs/${f.run}`,
    `${s}/invites`,
    `${s}/invites/members?member-q=member`,
    `${s}/invites/members/${guild.memberId}`,
    `${s}/invites/seasons`,
    `${s}/invites/seasons/new`,
    `${s}/invites/seasons/end`,
    `${s}/invites/milestones`,
    `${i.milestone}/edit`,
    `${i.milestone}/remove`,
    `${s}/moderation`,
    `${s}/moderation/cases/${m.caseNumber}`,
    `${s}/moderation/actions/new`,
    `${s}/moderation/actions/${m.actionId}`,
    `${s}/levels/members?member-q=member`,
    `${s}/levels/members/${guild.memberId}`,
    `${s}/levels/xp-changes/${lv.changeId}`,
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
    [`${s}/bank/settings`, { 'currency-name': 'x', 'currency-plural': 'xs', 'starting-balance': '1' }],
    [`${s}/bank/members/${guild.memberId}/adjustments`, { type: 'add', amount: '5' }],
    [`${s}/giveaways`, { 'giveaway-channel': '100000000000000002', 'giveaway-prize': 'x', 'giveaway-ends-at': '2099-01-01T00:00' }],
    [`${s}/giveaways/${g.active}/end`, {}],
    [`${s}/giveaways/${g.ended}/reroll`, {}],
    ...shopActions(s, shop),
    [`${s}/flows/${f.disabled}/enable`, {}],
    ...['disable', 'delete'].map((a): [string, Record<string, string>] => [`${s}/flows/${f.flow}/${a}`, {}]),
    [`${s}/flows/${f.flow}/definition`, { definition: JSON.stringify(f.definition) }],
    [`${s}/invites/members/${guild.memberId}/bonus`, { 'bonus-amount': '5' }],
    [`${s}/invites/seasons`, { 'season-name': 'x' }],
    [`${s}/invites/seasons/end`, {}],
    [`${s}/invites/milestones`, { 'milestone-invites': '7', 'milestone-role': guild.managerRoleId }],
    [`${i.milestone}/edit`, { 'milestone-invites': '9', 'milestone-role': guild.managerRoleId }],
    [`${i.milestone}/remove`, {}],
    [`${s}/moderation/actions`, { 'mod-action': 'warn', 'mod-member': guild.memberId, 'mod-reason': 'x' }],
    [`${s}/levels/rules`, { 'xp-per-message': '5', 'xp-per-voice-minute': '5', 'message-cooldown': '5', 'reward-stacking': 'replace' }],
    [`${s}/levels/no-xp-channels`, { 'no-xp-channel': lv.channelId }],
    [`${s}/levels/no-xp-channels/remove`, { channel: lv.noXpChannelId }],
    [`${s}/levels/rewards`, { 'reward-level': '7', 'reward-role': guild.managerRoleId }],
    [`${s}/levels/rewards/remove`, { level: '3', role: lv.rewardRoleId }],
    [`${s}/levels/members/${guild.memberId}/xp-changes`, { 'xp-type': 'add', 'xp-amount': '5', 'xp-unit': 'xp' }],
    [`${s}/applications/forms`, { 'form-title': 'x', 'question-0-label': 'y', 'question-0-type': 'short' }],
    [`${s}/applications/forms/${form.id}`, { 'form-title': 'x', 'question-0-label': 'y', 'question-0-type': 'short' }],
    [`${s}/applications/panels`, { 'app-panel-text': 'x' }],
    [`${s}/applications/panels/${appPanel}`, { 'app-panel-text': 'x' }],
  ];
  // Every action's form carries a one-time token (api/console/formFlow.ts submitOnce).
  return { guild, key, endpoint, pages, actions: actions.map(([path, fields]): [string, Record<string, string>, boolean] => [path, fields, true]) };
}

/** A no-XP channel, a reward role and an XP change asked in the console, so each form and page exists. */
async function levelRecords(guild: { id: string; managerId: string; memberId: string }) {
  const channelId = '100000000000000004';
  const noXpChannelId = '100000000000000005';
  const rewardRoleId = '100000000000000006';
  await upsertPlatformChannels(database.db, guild.id, [{ channelId, name: 'chat', type: 'text', position: 1 }]);
  await saveLevelSettings(database.db, guild.id, { announceChannelId: null, announceTemplate: 'GG {user}', removePreviousRewards: false, noXpChannelIds: [noXpChannelId] });
  await addLevelReward(database.db, guild.id, { level: 3, roleId: rewardRoleId });
  const { changeId } = await requestXpChange(database.db, {
    guildId: guild.id,
    userId: guild.memberId,
    asker: { consoleUserId: guild.managerId },
    type: 'add',
    unit: 'xp',
    amount: 1,
    reason: null,
    createdAt: new Date(),
  });
  return { channelId, noXpChannelId, rewardRoleId, changeId };
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

/** An active giveaway (its end page offers the form) and an ended one with a winner (its reroll page does). */
async function giveawayRecords(guildId: string) {
  const start = (prize: string) =>
    database.db.transaction().execute((trx) =>
      createGiveaway(trx, {
        guildId,
        body: GiveawayStartRequest.parse({ channelId: '100000000000000002', prize, durationSeconds: 3600 }),
        defaultHostId: '100000000000000001',
        at: new Date(),
        actor: { type: 'system' },
      }),
    );
  const [active, ended] = [await start('Running'), await start('Done')];
  await database.db.updateTable('giveaways').set({ status: 'active' }).where('id', '=', active.id).execute();
  await database.db.updateTable('giveaways').set({ status: 'ended', winner_ids: ['100000000000000001'] }).where('id', '=', ended.id).execute();
  return { active: active.id, ended: ended.id };
}

/** A store, an item in it, an item off sale and a member's purchase (a grant) of the server. */
async function shopRecords(guildId: string, userId: string) {
  const at = new Date();
  const store = await insertStore(database.db, guildId, { name: 'Extras', emoji: null, description: null, color: null, enabled: true, channelIds: [], sortOrder: 0 }, at);
  const item = await insertItem(database.db, guildId, { ...ITEM_DEFAULTS, storeId: store.id, stock: 5 }, at);
  const off = await insertItem(database.db, guildId, { ...ITEM_DEFAULTS, enabled: false }, at);
  const { purchase } = await database.db.transaction().execute((trx) => grantItem(trx, { guildId, userId, itemId: item.id, reason: null, actor: { type: 'system' }, at }));
  return { store: store.id, item: item.id, off: off.id, purchase: purchase.id };
}
type ShopRecords = Awaited<ReturnType<typeof shopRecords>>;

const shopPages = (s: string, r: ShopRecords) =>
  ['', '/stores/new', `/stores/${r.store}`, `/stores/${r.store}/items`, '/stores/main/items', '/items/new', `/items/${r.item}`, `/items/${r.item}/disable`, `/items/${r.off}`, '/purchases', `/purchases/${r.purchase}`, `/purchases/${r.purchase}/refund`].map(
    (p) => `${s}/shop${p}`,
  );
const shopActions = (s: string, r: ShopRecords): Array<[string, Record<string, string>]> => [
  [`${s}/shop/stores`, { 'store-name': 'x' }],
  [`${s}/shop/stores/${r.store}`, { 'store-name': 'y' }],
  [`${s}/shop/items`, { 'item-name': 'x', 'item-price': '1', 'item-type': 'item' }],
  [`${s}/shop/items/${r.item}`, { 'item-name': 'y', 'item-price': '2', 'item-type': 'item' }],
  [`${s}/shop/items/${r.item}/stock`, { 'item-stock': '9' }],
  [`${s}/shop/items/${r.item}/disable`, {}],
  [`${s}/shop/items/${r.off}/enable`, {}],
  [`${s}/shop/purchases/${r.purchase}/refund`, { 'refund-reason': 'x' }],
];

/** An enabled flow of the server with a run, and a disabled one (its page offers to enable it), saved by the flow use cases. */
async function flowRecords(guildId: string) {
  const definition = { name: 'Walk', nodes: [{ id: 'start', type: 'trigger' as const, trigger: { kind: 'manual' as const }, next: 'a' }, { id: 'a', type: 'set' as const, values: {} }] };
  const save = (enabled: boolean) => database.db.transaction().execute((trx) => createFlow(trx, { guildId, definition, enabled, actor: { type: 'system' }, at: new Date() }));
  const { flow } = await save(true);
  const { flow: disabled } = await save(false);
  const run = await insertFlowRun(database.db, { guildId, flowId: flow.id, flowVersion: 1, source: 'api', nodes: [], timeoutSeconds: 60, input: null, apiKeyId: null, eventId: null, startedAt: new Date() });
  return { flow: flow.id, disabled: disabled.id, run: run!.executionId, definition };
}

/** A running invite season and a milestone reward of the server (the path of its pages). */
async function inviteRecords(guildId: string, roleId: string) {
  await database.db.transaction().execute((trx) => startInviteSeason(trx, { guildId, name: null, at: new Date(), actor: { type: 'system' } }));
  await addInviteMilestone(database.db, guildId, { invites: 3, roleId });
  return { milestone: `/console/servers/${guildId}/invites/milestones/3/${roleId}` };
}

/** A moderation case and an action asked from the console, for the moderation pages. */
async function moderationRecords(guildId: string, managerId: string, memberId: string) {
  const at = new Date();
  const { number: caseNumber } = await insertCase(database.db, newTestCase(guildId, { userId: memberId, moderatorId: managerId, source: 'console', createdAt: at }));
  const { actionId } = await requestModAction(database.db, { guildId, userId: memberId, action: 'kick', by: { moderatorId: managerId, via: 'console' }, request: {}, requestedAt: at });
  return { caseNumber, actionId };
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
  giveaways: await database.db.selectFrom('giveaways').select(['id', 'status', 'winner_ids']).where('guild_id', '=', guildId).orderBy('id').execute(),
  giveawayDraws: await database.db.selectFrom('giveaway_draws').select('draw_number').where('guild_id', '=', guildId).execute(),
  audit: await database.db.selectFrom('audit_log').select('id').where('guild_id', '=', guildId).execute(),
  bankSettings: await database.db.selectFrom('bank_settings').selectAll().where('guild_id', '=', guildId).execute(),
  bankAccounts: await database.db.selectFrom('bank_accounts').selectAll().where('guild_id', '=', guildId).execute(),
  bankLedger: await database.db.selectFrom('bank_ledger').select('id').where('guild_id', '=', guildId).execute(),
  shopStores: await database.db.selectFrom('shop_stores').selectAll().where('guild_id', '=', guildId).execute(),
  shopItems: await database.db.selectFrom('shop_items').selectAll().where('guild_id', '=', guildId).execute(),
  shopPurchases: await database.db.selectFrom('shop_purchases').select(['id', 'status', 'refunded_by']).where('guild_id', '=', guildId).execute(),
  flows: await database.db.selectFrom('flows').select(['id', 'enabled', 'version', 'definition']).where('guild_id', '=', guildId).execute(),
  inviteMembers: await database.db.selectFrom('invite_members').select(['user_id', 'bonus']).where('guild_id', '=', guildId).execute(),
  inviteSeasons: await database.db.selectFrom('invite_seasons').select(['number', 'ended_at']).where('guild_id', '=', guildId).execute(),
  inviteMilestones: await database.db.selectFrom('invite_milestones').select(['invites', 'role_id']).where('guild_id', '=', guildId).execute(),
  modActions: await database.db.selectFrom('moderation_actions').select(['action_id', 'status']).where('guild_id', '=', guildId).execute(),
  modCases: await database.db.selectFrom('moderation_cases').select('number').where('guild_id', '=', guildId).execute(),
  levelRewards: await database.db.selectFrom('level_rewards').selectAll().where('guild_id', '=', guildId).execute(),
  xpChanges: await database.db.selectFrom('xp_changes').select(['change_id', 'status']).where('guild_id', '=', guildId).execute(),
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
