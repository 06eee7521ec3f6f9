import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
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
import { newTestCase } from '../harness/modCases.js';
import { addLevelReward, saveLevelSettings } from '../../db/levels/members.js';
import { upsertPlatformChannels } from '../../db/platform/local.js';
import { requestXpChange } from '../../src/levels/requestXpChange.js';

/**
 * The records the console authorization walk (authorization.test.ts) needs on a server, so every page and action
 * of it exists, and the snapshot of the rows they could change.
 */
/** A no-XP channel, a reward role and an XP change asked in the console, so each form and page exists. */
export async function levelRecords(db: Kysely<Database>, guild: { id: string; managerId: string; memberId: string }) {
  const channelId = '100000000000000004';
  const noXpChannelId = '100000000000000005';
  const rewardRoleId = '100000000000000006';
  await upsertPlatformChannels(db, guild.id, [{ channelId, name: 'chat', type: 'text', position: 1 }]);
  await saveLevelSettings(db, guild.id, { announceChannelId: null, announceTemplate: 'GG {user}', removePreviousRewards: false, noXpChannelIds: [noXpChannelId] });
  await addLevelReward(db, guild.id, { level: 3, roleId: rewardRoleId });
  const { changeId } = await requestXpChange(db, {
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
export async function ticketRecords(db: Kysely<Database>, guildId: string) {
  const at = new Date();
  const opening = { guildId, userId: '100000000000000001', panel: null, subject: null, source: 'panel' as const, isThread: false, channelId: null, answers: [], at, actor: { type: 'system' as const } };
  const { open, closed } = await db.transaction().execute(async (trx) => ({ open: (await openTicket(trx, opening)).ticketNo, closed: (await openTicket(trx, opening)).ticketNo }));
  await db
    .transaction()
    .execute((trx) => closeTicket(trx, { guildId, ticketNo: closed, closedBy: null, closeType: 'manual', reason: null, messageContent: true, at, actor: { type: 'system' } }));
  const panel = { guildId, panelId: 1, channelId: '100000000000000002', title: null, text: 'Help', buttonLabel: 'Open', categoryId: null, staffRoleIds: [], message: null, posts: 0, updatedAt: at };
  await saveTicketPanel(db, panel);
  return { open, closed, panel: panel.panelId };
}

/** An active giveaway (its end page offers the form) and an ended one with a winner (its reroll page does). */
export async function giveawayRecords(db: Kysely<Database>, guildId: string) {
  const start = (prize: string) =>
    db.transaction().execute((trx) =>
      createGiveaway(trx, {
        guildId,
        body: GiveawayStartRequest.parse({ channelId: '100000000000000002', prize, durationSeconds: 3600 }),
        defaultHostId: '100000000000000001',
        at: new Date(),
        actor: { type: 'system' },
      }),
    );
  const [active, ended] = [await start('Running'), await start('Done')];
  await db.updateTable('giveaways').set({ status: 'active' }).where('id', '=', active.id).execute();
  await db.updateTable('giveaways').set({ status: 'ended', winner_ids: ['100000000000000001'] }).where('id', '=', ended.id).execute();
  return { active: active.id, ended: ended.id };
}

/** A store, an item in it, an item off sale and a member's purchase (a grant) of the server. */
export async function shopRecords(db: Kysely<Database>, guildId: string, userId: string) {
  const at = new Date();
  const store = await insertStore(db, guildId, { name: 'Extras', emoji: null, description: null, color: null, enabled: true, channelIds: [], sortOrder: 0 }, at);
  const item = await insertItem(db, guildId, { ...ITEM_DEFAULTS, storeId: store.id, stock: 5 }, at);
  const off = await insertItem(db, guildId, { ...ITEM_DEFAULTS, enabled: false }, at);
  const { purchase } = await db.transaction().execute((trx) => grantItem(trx, { guildId, userId, itemId: item.id, reason: null, actor: { type: 'system' }, at }));
  return { store: store.id, item: item.id, off: off.id, purchase: purchase.id };
}
export type ShopRecords = Awaited<ReturnType<typeof shopRecords>>;

export const shopPages = (s: string, r: ShopRecords) =>
  ['', '/stores/new', `/stores/${r.store}`, `/stores/${r.store}/items`, '/stores/main/items', '/items/new', `/items/${r.item}`, `/items/${r.item}/disable`, `/items/${r.off}`, '/purchases', `/purchases/${r.purchase}`, `/purchases/${r.purchase}/refund`].map(
    (p) => `${s}/shop${p}`,
  );
export const shopActions = (s: string, r: ShopRecords): Array<[string, Record<string, string>]> => [
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
export async function flowRecords(db: Kysely<Database>, guildId: string) {
  const definition = { name: 'Walk', nodes: [{ id: 'start', type: 'trigger' as const, trigger: { kind: 'manual' as const }, next: 'a' }, { id: 'a', type: 'set' as const, values: {} }] };
  const save = (enabled: boolean) => db.transaction().execute((trx) => createFlow(trx, { guildId, definition, enabled, actor: { type: 'system' }, at: new Date() }));
  const { flow } = await save(true);
  const { flow: disabled } = await save(false);
  const run = await insertFlowRun(db, { guildId, flowId: flow.id, flowVersion: 1, source: 'api', nodes: [], timeoutSeconds: 60, input: null, apiKeyId: null, eventId: null, startedAt: new Date() });
  return { flow: flow.id, disabled: disabled.id, run: run!.executionId, definition };
}

/** A running invite season and a milestone reward of the server (the path of its pages). */
export async function inviteRecords(db: Kysely<Database>, guildId: string, roleId: string) {
  await db.transaction().execute((trx) => startInviteSeason(trx, { guildId, name: null, at: new Date(), actor: { type: 'system' } }));
  await addInviteMilestone(db, guildId, { invites: 3, roleId });
  return { milestone: `/console/servers/${guildId}/invites/milestones/3/${roleId}` };
}

/** A moderation case and an action asked from the console, for the moderation pages. */
export async function moderationRecords(db: Kysely<Database>, guildId: string, managerId: string, memberId: string) {
  const at = new Date();
  const { number: caseNumber } = await insertCase(db, newTestCase(guildId, { userId: memberId, moderatorId: managerId, source: 'console', createdAt: at }));
  const { actionId } = await requestModAction(db, { guildId, userId: memberId, action: 'kick', by: { moderatorId: managerId, via: 'console' }, request: {}, requestedAt: at });
  return { caseNumber, actionId };
}

/** The server's rows that a console page or action could change: equal before and after, nothing changed. */
export const snapshot = async (db: Kysely<Database>, guildId: string) => ({
  features: await db.selectFrom('guilds').select('features').where('id', '=', guildId).execute(),
  levelSettings: await db.selectFrom('level_settings').selectAll().where('guild_id', '=', guildId).execute(),
  tickets: await db.selectFrom('tickets').select(['ticket_no', 'status', 'close_reason']).where('guild_id', '=', guildId).orderBy('ticket_no').execute(),
  ticketPanels: await db.selectFrom('ticket_panels').selectAll().where('guild_id', '=', guildId).execute(),
  ticketSettings: await db.selectFrom('ticket_settings').selectAll().where('guild_id', '=', guildId).execute(),
  appeals: await db.selectFrom('appeals').select(['number', 'status', 'decided_by', 'applying']).where('guild_id', '=', guildId).execute(),
  appealMessages: await db.selectFrom('appeal_messages').select('id').where('guild_id', '=', guildId).execute(),
  applicationForms: await db.selectFrom('application_forms').selectAll().where('guild_id', '=', guildId).execute(),
  applicationPanels: await db.selectFrom('application_panels').selectAll().where('guild_id', '=', guildId).execute(),
  submissions: await db.selectFrom('application_submissions').select(['number', 'status', 'decided_by']).where('guild_id', '=', guildId).execute(),
  messages: await db.selectFrom('platform_messages').select('id').where('guild_id', '=', guildId).execute(),
  keys: await db.selectFrom('api_keys').select(['id', 'revoked_at']).where('guild_id', '=', guildId).execute(),
  endpoints: await db
    .selectFrom('webhook_endpoints')
    .select(['id', 'url', 'events', 'description', 'secret', 'previous_secret', 'enabled', 'removed_at'])
    .where('guild_id', '=', guildId)
    .execute(),
  deliveries: await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select(['d.id', 'd.status', 'd.retry_requested_at'])
    .where('e.guild_id', '=', guildId)
    .execute(),
  events: await db.selectFrom('events').select('id').where('guild_id', '=', guildId).execute(),
  giveaways: await db.selectFrom('giveaways').select(['id', 'status', 'winner_ids']).where('guild_id', '=', guildId).orderBy('id').execute(),
  giveawayDraws: await db.selectFrom('giveaway_draws').select('draw_number').where('guild_id', '=', guildId).execute(),
  audit: await db.selectFrom('audit_log').select('id').where('guild_id', '=', guildId).execute(),
  bankSettings: await db.selectFrom('bank_settings').selectAll().where('guild_id', '=', guildId).execute(),
  bankAccounts: await db.selectFrom('bank_accounts').selectAll().where('guild_id', '=', guildId).execute(),
  bankLedger: await db.selectFrom('bank_ledger').select('id').where('guild_id', '=', guildId).execute(),
  shopStores: await db.selectFrom('shop_stores').selectAll().where('guild_id', '=', guildId).execute(),
  shopItems: await db.selectFrom('shop_items').selectAll().where('guild_id', '=', guildId).execute(),
  shopPurchases: await db.selectFrom('shop_purchases').select(['id', 'status', 'refunded_by']).where('guild_id', '=', guildId).execute(),
  flows: await db.selectFrom('flows').select(['id', 'enabled', 'version', 'definition']).where('guild_id', '=', guildId).execute(),
  inviteMembers: await db.selectFrom('invite_members').select(['user_id', 'bonus']).where('guild_id', '=', guildId).execute(),
  inviteSeasons: await db.selectFrom('invite_seasons').select(['number', 'ended_at']).where('guild_id', '=', guildId).execute(),
  inviteMilestones: await db.selectFrom('invite_milestones').select(['invites', 'role_id']).where('guild_id', '=', guildId).execute(),
  modActions: await db.selectFrom('moderation_actions').select(['action_id', 'status']).where('guild_id', '=', guildId).execute(),
  modCases: await db.selectFrom('moderation_cases').select('number').where('guild_id', '=', guildId).execute(),
  levelRewards: await db.selectFrom('level_rewards').selectAll().where('guild_id', '=', guildId).execute(),
  xpChanges: await db.selectFrom('xp_changes').select(['change_id', 'status']).where('guild_id', '=', guildId).execute(),
});
