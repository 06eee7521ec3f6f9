import { describe, expect, it } from 'vitest';
import { saveApplicationPanel } from '../../db/applications/panels.js';
import { insertEvent } from '../../db/shared/events.js';
import { insertEndpoint } from '../../db/webhooks/webhooks.js';
import { fileTestAppeal } from '../harness/appeals.js';
import { createTestForm, fileTestSubmission } from '../harness/applications.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { createTestKey } from '../harness/fixtures.js';
import { consoleClient, errorCodeOf, managedGuild } from './consoleClient.js';
import { flowRecords, giveawayRecords, inviteRecords, levelRecords, moderationRecords, shopActions, shopPages, shopRecords, snapshot, ticketRecords } from './walkRecords.js';

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
  const t = await ticketRecords(database.db, guild.id);
  const form = await createTestForm(database.db, guild.id);
  const { number: submission } = await fileTestSubmission(database.db, guild.id, { form, userId: guild.memberId, at: new Date() });
  const shop = await shopRecords(database.db, guild.id, guild.memberId);
  const appPanel = 1;
  await saveApplicationPanel(database.db, { guildId: guild.id, panelId: appPanel, channelId: '100000000000000002', text: 'Apply', formIds: null, message: null, posts: 0, updatedAt: new Date() });
  const { number: appeal } = await fileTestAppeal(database.db, guild.id, { userId: '100000000000000003', at: new Date() });
  const g = await giveawayRecords(database.db, guild.id);
  const f = await flowRecords(database.db, guild.id);
  const i = await inviteRecords(database.db, guild.id, guild.managerRoleId);
  const m = await moderationRecords(database.db, guild.id, guild.managerId, guild.memberId);
  const lv = await levelRecords(database.db, guild);
  const pages = [
    s,
    `${s}/overview`,
    `${s}/overview/features/levels/off`,
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
    `${s}/applications/${submission}/decision/confirm?decision=accepted`,
    `${s}/appeals`,
    `${s}/appeals/${appeal}`,
    `${s}/appeals/${appeal}/decision/confirm?appeal-verb=approve&appeal-reason=x`,
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
    `${s}/flows/new`,
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
    `${s}/moderation/members?member-q=member`,
    `${s}/moderation/moderators?member-id=${guild.managerId}`,
    `${s}/moderation/actions/new`,
    `${s}/moderation/actions/${m.actionId}`,
    `${s}/levels/members?member-q=member`,
    `${s}/levels/members/${guild.memberId}`,
    `${s}/levels/members/${guild.memberId}/xp-changes/confirm?xp-type=remove&xp-amount=5&xp-unit=xp`,
    `${s}/levels/xp-changes/${lv.changeId}`,
    `${s}/applications/forms`,
    `${s}/applications/forms/new`,
    `${s}/applications/forms/${form.id}`,
    `${s}/applications/panels`,
    `${s}/applications/panels/new`,
    `${s}/applications/panels/${appPanel}`,
  ];
  const actions: Array<[string, Record<string, string>]> = [
    [`${s}/overview/features/levels`, { on: 'true' }],
    [`${s}/overview/features/levels/off`, {}],
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
    [`${s}/applications/${submission}/decision/confirm`, { decision: 'accepted' }],
    [`${s}/appeals/${appeal}/decision/confirm`, { 'appeal-verb': 'approve', 'appeal-reason': 'x' }],
    [`${s}/bank/settings`, { 'currency-name': 'x', 'currency-plural': 'xs', 'starting-balance': '1' }],
    [`${s}/bank/members/${guild.memberId}/adjustments`, { type: 'add', amount: '5' }],
    [`${s}/giveaways`, { 'giveaway-channel': '100000000000000002', 'giveaway-prize': 'x', 'giveaway-ends-at': '2099-01-01T00:00' }],
    [`${s}/giveaways/${g.active}/end`, {}],
    [`${s}/giveaways/${g.ended}/reroll`, {}],
    ...shopActions(s, shop),
    [`${s}/flows/${f.disabled}/enable`, {}],
    ...['disable', 'delete'].map((a): [string, Record<string, string>] => [`${s}/flows/${f.flow}/${a}`, {}]),
    [`${s}/flows/${f.flow}/definition`, { definition: JSON.stringify(f.definition) }],
    [`${s}/flows/new`, { definition: JSON.stringify(f.definition), 'flow-enabled': 'on' }],
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
    [`${s}/levels/members/${guild.memberId}/xp-changes/confirm`, { 'xp-type': 'remove', 'xp-amount': '5', 'xp-unit': 'xp' }],
    [`${s}/applications/forms`, { 'form-title': 'x', 'question-0-label': 'y', 'question-0-type': 'short' }],
    [`${s}/applications/forms/${form.id}`, { 'form-title': 'x', 'question-0-label': 'y', 'question-0-type': 'short' }],
    [`${s}/applications/panels`, { 'app-panel-text': 'x' }],
    [`${s}/applications/panels/${appPanel}`, { 'app-panel-text': 'x' }],
  ];
  // Every action's form carries a one-time token (api/console/formFlow.ts submitOnce) but a decision's first step,
  // which changes nothing: it checks the input and sends it to the confirmation, whose action is the once-only one.
  const asksOnly = new Set([`${s}/applications/${submission}/decision`, `${s}/appeals/${appeal}/decision`]);
  return { guild, key, endpoint, pages, actions: actions.map(([path, fields]): [string, Record<string, string>, boolean] => [path, fields, !asksOnly.has(path)]) };
}

describe('every console route of a server', () => {
  it('sends a visitor without a session to sign in (pages) or refuses 401 (actions), changing nothing', async () => {
    const { guild, pages, actions } = await serverRoutes();
    const before = await snapshot(database.db, guild.id);
    const anonymous = consoleClient(app.baseUrl);
    for (const path of pages) {
      const res = await anonymous.get(path);
      expect([path, res.status, res.headers.location]).toEqual([path, 302, '/console/sign-in']);
    }
    for (const [path, fields] of actions) {
      const res = await anonymous.post(path, fields, { csrf: null });
      expect([path, res.status, errorCodeOf(res)]).toEqual([path, 401, 'SIGN_IN_REQUIRED']);
    }
    expect(await snapshot(database.db, guild.id)).toEqual(before);
  });

  it('refuses a member without Manage Server 403 on every page and action, even with a valid CSRF token, changing nothing', async () => {
    const { guild, pages, actions } = await serverRoutes();
    const before = await snapshot(database.db, guild.id);
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
    expect(await snapshot(database.db, guild.id)).toEqual(before);
  });

  it('refuses a manager of another server 403 on every page and action of this one, changing nothing', async () => {
    const { guild, pages, actions } = await serverRoutes();
    const other = await managedGuild(database.db, 'Elsewhere');
    const before = await snapshot(database.db, guild.id);
    const stranger = consoleClient(app.baseUrl);
    await stranger.signIn(other.managerId);
    for (const path of pages) expect([path, (await stranger.get(path)).status]).toEqual([path, 403]);
    for (const [path, fields] of actions) expect([path, (await stranger.post(path, fields)).status]).toEqual([path, 403]);
    expect(await snapshot(database.db, guild.id)).toEqual(before);
  });

  it('refuses every once-only action of a manager without its form token 400 FORM_TOKEN_INVALID, changing nothing', async () => {
    const { guild, pages, actions } = await serverRoutes();
    const manager = consoleClient(app.baseUrl);
    await manager.signIn(guild.managerId); // audited (console.signIn): the snapshot starts after it
    const before = await snapshot(database.db, guild.id);
    for (const path of pages) await manager.get(path);
    const once = actions.filter(([, , onceOnly]) => onceOnly);
    expect(once).toHaveLength(actions.length - 2);
    for (const [path, fields] of once) {
      expect(manager.state.forms.get(path), `${path} has a form`).toBeDefined();
      const res = await manager.post(path, fields, { form: null });
      expect([path, res.status, errorCodeOf(res)]).toEqual([path, 400, 'FORM_TOKEN_INVALID']);
    }
    expect(await snapshot(database.db, guild.id)).toEqual(before);
  });

  it('refuses every action of a manager without the CSRF token 403, changing nothing', async () => {
    const { guild, actions } = await serverRoutes();
    const manager = consoleClient(app.baseUrl);
    await manager.signIn(guild.managerId); // audited (console.signIn): the snapshot starts after it
    const before = await snapshot(database.db, guild.id);
    for (const [path, fields] of actions) {
      const res = await manager.post(path, fields, { csrf: null });
      expect([path, res.status, errorCodeOf(res)]).toEqual([path, 403, 'CSRF_TOKEN_INVALID']);
    }
    expect(await snapshot(database.db, guild.id)).toEqual(before);
  });

  it('refuses every action of a manager whose role was taken after the pages opened 403, changing nothing', async () => {
    const { guild, pages, actions } = await serverRoutes();
    const manager = consoleClient(app.baseUrl);
    await manager.signIn(guild.managerId); // audited (console.signIn): the snapshot starts after it
    for (const path of pages) await manager.get(path);
    // Taken on the platform since: each write reads the member fresh, whatever a page read from the member cache.
    await database.db.updateTable('platform_members').set({ role_ids: [] }).where('guild_id', '=', guild.id).where('user_id', '=', guild.managerId).execute();
    const before = await snapshot(database.db, guild.id);
    for (const [path, fields] of actions) {
      expect(manager.state.forms.get(path), `${path} has a form`).toBeDefined();
      const res = await manager.post(path, fields);
      expect([path, res.status, errorCodeOf(res)]).toEqual([path, 403, 'NOT_A_SERVER_MANAGER']);
    }
    expect(await snapshot(database.db, guild.id)).toEqual(before);
  });
});
