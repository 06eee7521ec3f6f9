import { describe, expect, it } from 'vitest';
import { saveBankSettings, DEFAULT_BANK_SETTINGS, type BankSettings } from '../../db/bank/accounts.js';
import { upsertPlatformChannels } from '../../db/platform/local.js';
import { insertEndpoint } from '../../db/webhooks/webhooks.js';
import { eventEnvelope } from '../../src/events/contract.js';
import { eventually } from '../harness/eventually.js';
import { addTestMember, snowflake } from '../harness/fixtures.js';
import { startReceiver } from '../harness/receiver.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { consoleClient, consoleUserAudit, errorCodeOf, fieldErrorOf, managedGuild } from './consoleClient.js';

// Adjustments start the event fan-out on a real worker: the webhook a console change emits is the API's.
const { db, app } = useWorkflowTestBed({ app: { env: { CONSOLE_SIGN_IN_LIMIT: '1000' } } });

async function signedIn(options: { features?: string[]; settings?: Partial<BankSettings> } = {}) {
  const guild = await managedGuild(db(), 'Bank Guild');
  await db().updateTable('guilds').set({ features: options.features ?? ['bank'] }).where('id', '=', guild.id).execute();
  const log = snowflake();
  const voice = snowflake();
  await upsertPlatformChannels(db(), guild.id, [
    { channelId: log, name: 'bank-log', type: 'text', position: 1 },
    { channelId: voice, name: 'Lounge', type: 'voice', position: 2 },
  ]);
  if (options.settings) await saveBankSettings(db(), guild.id, { ...DEFAULT_BANK_SETTINGS, currency: { name: 'gem', plural: 'gems', emoji: '💎' }, ...options.settings });
  const client = consoleClient(app.baseUrl);
  await client.signIn(guild.managerId);
  const s = `/console/servers/${guild.id}/bank`;
  return { guild, client, log, voice, s };
}

const accounts = (guildId: string) => db().selectFrom('bank_accounts').select(['user_id', 'balance']).where('guild_id', '=', guildId).orderBy('user_id').execute();
const ledger = (guildId: string) =>
  db().selectFrom('bank_ledger').select(['user_id', 'type', 'amount', 'balance_after', 'reason', 'actor_id', 'api_key_id']).where('guild_id', '=', guildId).orderBy('id').execute();
const consoleAudit = (guildId: string) => consoleUserAudit(db(), guildId);
const settingsRows = (guildId: string) => db().selectFrom('bank_settings').selectAll().where('guild_id', '=', guildId).execute();
/** Everything an adjustment or a settings change writes. */
const snapshot = async (guildId: string) => ({
  accounts: await accounts(guildId),
  ledger: await ledger(guildId),
  audit: await consoleAudit(guildId),
  settings: await settingsRows(guildId),
  events: await db().selectFrom('events').select('id').where('guild_id', '=', guildId).execute(),
});
const ranksOn = (html: string) => [...html.matchAll(/data-rank="(\d+)"/g)].map((m) => Number(m[1]));

describe('the bank page', () => {
  it('shows the settings with the channels by name and the leaderboard by member name, 25 a page by keyset', async () => {
    const { guild, client, log, s } = await signedIn({ settings: { startingBalance: 10 } });
    const rich = await addTestMember(db(), guild, { username: 'rich-rita' });
    const others = Array.from({ length: 26 }, (_, i) => ({ guild_id: guild.id, user_id: snowflake(), balance: 100, updated_at: new Date() }));
    await db().insertInto('bank_accounts').values([{ guild_id: guild.id, user_id: rich, balance: 5_000, updated_at: new Date() }, ...others]).execute();
    const page = await client.get(s);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<option value="${log}">#bank-log</option>`);
    expect(page.text).not.toContain('>Lounge');
    expect(page.text).toContain('value="gem"');
    expect(page.text).toContain('value="10"');
    expect(page.text).toMatch(new RegExp(`<tr data-rank="1"><td>1</td><td><a href="${s}/members/${rich}">rich-rita</a></td><td>💎 5,000 gems</td>`));
    expect(ranksOn(page.text)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    const next = /href="([^"]+)" rel="next">Next members/.exec(page.text)![1]!;
    const second = await client.get(next);
    expect(ranksOn(second.text)).toEqual([26, 27]);
    expect(second.text).not.toContain('rel="next"');
    // Ties in the API's order (user id), so the second page holds exactly the rest.
    const tied = others.map((o) => o.user_id).sort();
    expect(second.text).toContain(tied[24]);
    expect(second.text).toContain(tied[25]);
    const bad = await client.get(`${s}?after=nope`);
    expect([bad.status, errorCodeOf(bad)]).toEqual([400, 'INVALID_INPUT']);
  });

  it('says what to do on an empty leaderboard', async () => {
    const { client, s } = await signedIn();
    expect((await client.get(s)).text).toContain('data-empty="bank-leaderboard"');
  });

  it('shows the feature-off page while the bank is off and refuses its actions 409 BANK_DISABLED, as the API does', async () => {
    const { guild, client, s } = await signedIn({ features: [] });
    const page = await client.get(s);
    expect([page.status, page.text.includes('data-feature-off="bank"')]).toEqual([200, true]);
    expect(page.text).not.toContain('Save the bank settings');
    const member = await client.get(`${s}/members/${guild.memberId}`);
    expect([member.status, errorCodeOf(member)]).toEqual([409, 'BANK_DISABLED']);
    const before = await snapshot(guild.id);
    const res = await client.post(`${s}/members/${guild.memberId}/adjustments`, { type: 'add', amount: '5' }, { form: 'x' });
    expect([res.status, errorCodeOf(res)]).toEqual([409, 'BANK_DISABLED']);
    expect(await snapshot(guild.id)).toEqual(before);
    const on = await client.post(`/console/servers/${guild.id}/overview/features/bank`, { on: 'true', then: 'bank' });
    expect([on.status, on.headers.location]).toEqual([303, s]);
  });
});

describe('the bank settings', () => {
  const form = (log: string, over: Record<string, string> = {}) => ({
    'currency-name': 'star',
    'currency-plural': 'stars',
    'currency-emoji': '⭐',
    'starting-balance': '250',
    'max-balance': '1000000',
    'bank-log-channel': log,
    ...over,
  });

  it('saves the currency, balances and log channel, audited with the console user; the API reads them', async () => {
    const { guild, client, log, s } = await signedIn();
    await client.get(s);
    const res = await client.post(`${s}/settings`, form(log));
    expect([res.status, res.headers.location]).toEqual([303, s]);
    expect(await settingsRows(guild.id)).toEqual([
      { guild_id: guild.id, currency_name: 'star', currency_plural: 'stars', currency_emoji: '⭐', starting_balance: 250, max_balance: 1_000_000, log_channel_id: log },
    ]);
    const audit = await consoleAudit(guild.id);
    expect(audit).toMatchObject([{ actor_type: 'console_user', actor_id: guild.managerId, action: 'bank.settings' }]);
    expect((audit[0]!.data as { after: unknown }).after).toEqual({ currency: { name: 'star', plural: 'stars', emoji: '⭐' }, startingBalance: 250, maxBalance: 1_000_000, logChannelId: log });
    // Sent again unchanged (a new form): nothing written.
    await client.get(s);
    await client.post(`${s}/settings`, form(log));
    expect(await consoleAudit(guild.id)).toHaveLength(1);
    // A member without an account now has the new starting balance.
    const member = await client.get(`${s}/members/${guild.memberId}`);
    expect(member.text).toContain('data-balance="250"');
    expect(member.text).toContain('⭐ 250 stars');
  });

  it.each([
    ['an empty currency name', { 'currency-name': ' ' }, 422, 'INVALID_CURRENCY', 'currency-name'],
    ['a plural over 32 characters', { 'currency-plural': 'x'.repeat(33) }, 422, 'INVALID_CURRENCY', 'currency-plural'],
    ['an emoji over 64 characters', { 'currency-emoji': 'x'.repeat(65) }, 422, 'INVALID_CURRENCY', 'currency-emoji'],
    ['a starting balance above 10^12', { 'starting-balance': '1000000000001' }, 422, 'INVALID_BALANCE', 'starting-balance'],
    ['a starting balance that is no number', { 'starting-balance': '-5' }, 400, 'INVALID_INPUT', 'starting-balance'],
    ['no starting balance', { 'starting-balance': '' }, 400, 'INVALID_INPUT', 'starting-balance'],
    ['a maximum under the starting balance', { 'max-balance': '100' }, 422, 'INVALID_BALANCE', 'max-balance'],
    ['a maximum that is no number', { 'max-balance': '1.5' }, 400, 'INVALID_INPUT', 'max-balance'],
    ['a voice channel for the log', { 'bank-log-channel': 'VOICE' }, 422, 'INVALID_CHANNEL', 'bank-log-channel'],
  ])('refuses %s on the form with its field named, changing nothing', async (_, over, status, code, field) => {
    const { guild, client, log, voice, s } = await signedIn();
    await client.get(s);
    const sent = form(log, Object.fromEntries(Object.entries(over).map(([k, v]) => [k, v === 'VOICE' ? voice : v])));
    const before = await snapshot(guild.id);
    const res = await client.post(`${s}/settings`, sent);
    expect([res.status, /data-error="([A-Z_]+)"/.exec(res.text)?.[1]]).toEqual([status, code]);
    expect(res.text).toContain(`href="#${field}"`);
    expect(fieldErrorOf(res.text, field)).toBeTruthy();
    expect(await snapshot(guild.id)).toEqual(before);
  });
});

describe("a member's balance", () => {
  it("finds a member by the start of their name (the server's member search, account or not) or by user id, with each bad search kept on the finder", async () => {
    const { guild, client, s } = await signedIn();
    const nora = await addTestMember(db(), guild, { username: 'nora-north' });
    const noel = await addTestMember(db(), guild, { username: 'Noel' });
    await db().insertInto('bank_accounts').values({ guild_id: guild.id, user_id: nora, balance: 3, updated_at: new Date() }).execute();
    const byId = await client.get(`${s}/members?member-id=${nora}`);
    expect([byId.status, byId.headers.location]).toEqual([303, `${s}/members/${nora}`]);
    const byName = await client.get(`${s}/members?member-q=+NO`);
    expect(byName.status).toBe(200);
    expect(byName.text).toContain(`<a href="${s}/members/${nora}">nora-north</a> <small class="muted">${nora}</small>`);
    expect(byName.text).toContain(`<a href="${s}/members/${noel}">Noel</a>`);
    expect(byName.text).toContain('value=" NO"');
    const none = await client.get(`${s}/members?member-q=north`);
    expect(none.text).toContain('data-empty="bank-members"');
    const rows = await db().selectFrom('bank_accounts').selectAll().where('guild_id', '=', guild.id).execute();
    for (const [query, field, message] of [
      ['member-q=', 'member-q', "Type the start of a member's name: 1 to 32 characters."],
      [`member-q=${'n'.repeat(33)}`, 'member-q', 'Names are at most 32 characters: type the start of one.'],
      ['member-id=nora', 'member-id', 'Give a user id: 17 to 20 digits.'],
    ]) {
      const res = await client.get(`${s}/members?${query}`);
      expect([res.status, /data-error="([A-Z_]+)"/.exec(res.text)?.[1], fieldErrorOf(res.text, field!)]).toEqual([400, 'INVALID_INPUT', message]);
    }
    expect(await db().selectFrom('bank_accounts').selectAll().where('guild_id', '=', guild.id).execute()).toEqual(rows);
    const notAnId = await client.get(`${s}/members/12`);
    expect([notAnId.status, errorCodeOf(notAnId)]).toEqual([404, 'PAGE_NOT_FOUND']);
  });

  it("shows the balance and the ledger newest first, 25 a page with an older link", async () => {
    const { guild, client, s } = await signedIn({ settings: { startingBalance: 0 } });
    const userId = await addTestMember(db(), guild, { username: 'lena' });
    for (let i = 1; i <= 26; i++) {
      await client.get(`${s}/members/${userId}`);
      expect((await client.post(`${s}/members/${userId}/adjustments`, { type: 'add', amount: String(i), reason: `gift ${i}` })).status).toBe(303);
    }
    const page = await client.get(`${s}/members/${userId}`);
    expect(page.text).toContain('data-balance="351"');
    expect(page.text).toContain('Bank: lena');
    const ids = [...page.text.matchAll(/data-transaction="(\d+)"/g)].map((m) => Number(m[1]));
    expect(ids).toHaveLength(25);
    expect(page.text.indexOf('gift 26')).toBeLessThan(page.text.indexOf('gift 25'));
    const older = /href="([^"]+)" rel="next">Older changes/.exec(page.text)![1]!;
    const second = await client.get(older);
    expect([...second.text.matchAll(/data-transaction="(\d+)"/g)]).toHaveLength(1);
    expect(second.text).toContain('gift 1<');
    const bad = await client.get(`${s}/members/${userId}?before=x`);
    expect([bad.status, errorCodeOf(bad)]).toEqual([400, 'INVALID_INPUT']);
  });

  it('shows an empty history for a member without an account', async () => {
    const { guild, client, s } = await signedIn();
    const res = await client.get(`${s}/members/${guild.memberId}`);
    expect(res.text).toContain('data-empty="ledger"');
    expect(res.text).toContain('data-balance="0"');
  });
});

describe('an adjustment', () => {
  it("adds through the API's use case: ledger row by the console user, balance, audit row and the bank.transaction webhook", async () => {
    const { guild, client, s } = await signedIn({ settings: { startingBalance: 100 } });
    const userId = await addTestMember(db(), guild, { username: 'ava' });
    const hook = await startReceiver([200]);
    try {
      await insertEndpoint(db(), { guildId: guild.id, url: hook.url, events: ['bank.transaction'], secret: 'whsec_bank' });
      await client.get(`${s}/members/${userId}`);
      const res = await client.post(`${s}/members/${userId}/adjustments`, { type: 'add', amount: '1,5'.replace(',', ''), reason: 'quiz winner' });
      expect([res.status, res.headers.location]).toEqual([303, `${s}/members/${userId}`]);
      expect(await accounts(guild.id)).toEqual([{ user_id: userId, balance: 115 }]);
      expect(await ledger(guild.id)).toEqual([
        { user_id: userId, type: 'starting_balance', amount: 100, balance_after: 100, reason: null, actor_id: null, api_key_id: null },
        { user_id: userId, type: 'admin_add', amount: 15, balance_after: 115, reason: 'quiz winner', actor_id: guild.managerId, api_key_id: null },
      ]);
      const audit = await consoleAudit(guild.id);
      expect(audit).toMatchObject([{ actor_type: 'console_user', actor_id: guild.managerId, action: 'bank.transaction', target_id: userId, data: { type: 'add', amount: 15, reason: 'quiz winner' } }]);
      await eventually(async () => hook.received.length, (n) => n >= 2);
      const bodies = hook.received.map((r) => JSON.parse(r.body) as { data: { type: string } }).sort((a, b) => a.data.type.localeCompare(b.data.type));
      expect(bodies.map((b) => b.data.type)).toEqual(['admin_add', 'starting_balance']);
      expect(bodies[0]).toMatchObject({ type: 'bank.transaction', guildId: guild.id, data: { userId, amount: 15, balanceAfter: 115, reason: 'quiz winner', actorId: guild.managerId } });
      expect(eventEnvelope('bank.transaction').strict().parse(bodies[0])).toBeDefined();
      expect((await client.get(res.headers.location!)).text).toContain('data-balance="115"');
    } finally {
      await hook.close();
    }
  });

  it('asks before removing money, then removes it with the console user as actor', async () => {
    const { guild, client, s } = await signedIn({ settings: { startingBalance: 50 } });
    const userId = await addTestMember(db(), guild, { username: 'rob' });
    await client.get(`${s}/members/${userId}`);
    const ask = await client.post(`${s}/members/${userId}/adjustments`, { type: 'remove', amount: '20', reason: 'spam' });
    expect(ask.status).toBe(200);
    expect(ask.text).toContain('data-confirm-removal');
    expect(ask.text).toContain('💎 30 gems');
    expect(await ledger(guild.id)).toEqual([]);
    const done = await client.post(`${s}/members/${userId}/adjustments`, { type: 'remove', amount: '20', reason: 'spam', confirm: 'yes' });
    expect([done.status, done.headers.location]).toEqual([303, `${s}/members/${userId}`]);
    expect(await accounts(guild.id)).toEqual([{ user_id: userId, balance: 30 }]);
    expect((await ledger(guild.id)).at(-1)).toEqual({ user_id: userId, type: 'admin_remove', amount: -20, balance_after: 30, reason: 'spam', actor_id: guild.managerId, api_key_id: null });
    expect(await consoleAudit(guild.id)).toMatchObject([{ actor_type: 'console_user', actor_id: guild.managerId, action: 'bank.transaction', data: { type: 'remove', amount: 20 } }]);
    // The confirmation sent again (Back, resubmit) is sent to the first answer's page and removes nothing more.
    const again = await client.post(`${s}/members/${userId}/adjustments`, { type: 'remove', amount: '20', reason: 'spam', confirm: 'yes' });
    expect([again.status, again.headers.location]).toEqual([303, `${s}/members/${userId}`]);
    expect(await accounts(guild.id)).toEqual([{ user_id: userId, balance: 30 }]);
  });

  it.each([
    ['amount 0', { type: 'add', amount: '0' }, 400, 'INVALID_REQUEST', 'adjust-amount'],
    ['an amount above 10^12', { type: 'add', amount: '1000000000001' }, 400, 'INVALID_REQUEST', 'adjust-amount'],
    ['a fractional amount', { type: 'add', amount: '1.5' }, 400, 'INVALID_REQUEST', 'adjust-amount'],
    ['no amount', { type: 'add', amount: '' }, 400, 'INVALID_REQUEST', 'adjust-amount'],
    ['an unknown type', { type: 'set', amount: '5' }, 400, 'INVALID_REQUEST', 'adjust-type'],
    ['a reason over 200 characters', { type: 'add', amount: '5', reason: 'x'.repeat(201) }, 400, 'INVALID_REQUEST', 'adjust-reason'],
    ['a removal past the balance', { type: 'remove', amount: '41' }, 409, 'INSUFFICIENT_FUNDS', 'adjust-amount'],
    ['a confirmed removal past the balance', { type: 'remove', amount: '41', confirm: 'yes' }, 409, 'INSUFFICIENT_FUNDS', 'adjust-amount'],
    ['an addition past the maximum balance', { type: 'add', amount: '61' }, 422, 'BALANCE_LIMIT', 'adjust-amount'],
  ])('refuses %s with the API code on its field, changing nothing', async (_, fields, status, code, field) => {
    const { guild, client, s } = await signedIn({ settings: { startingBalance: 40, maxBalance: 100 } });
    const userId = await addTestMember(db(), guild, { username: 'tess' });
    await client.get(`${s}/members/${userId}`);
    const before = await snapshot(guild.id);
    const res = await client.post(`${s}/members/${userId}/adjustments`, fields);
    expect([res.status, /data-error="([A-Z_]+)"/.exec(res.text)?.[1]]).toEqual([status, code]);
    expect(res.text).toContain(`href="#${field}"`);
    expect(fieldErrorOf(res.text, field)).toBeTruthy();
    // The input kept as sent.
    if (fields.amount !== '') expect(res.text).toContain(`name="amount" inputmode="numeric" value="${fields.amount}"`);
    expect(await snapshot(guild.id)).toEqual(before);
  });

  it.each([
    ['a user who is not a member', 'MEMBER_NOT_FOUND', 404],
    ['a bot account', 'BOT_ACCOUNT', 422],
  ])('refuses %s with %s as the API does, changing nothing', async (_, code, status) => {
    const { guild, client, s } = await signedIn();
    const userId = code === 'BOT_ACCOUNT' ? guild.botUserId : snowflake();
    await client.get(`${s}/members/${userId}`);
    const before = await snapshot(guild.id);
    for (const fields of [{ type: 'add', amount: '5' }, { type: 'remove', amount: '5' }]) {
      const res = await client.post(`${s}/members/${userId}/adjustments`, fields);
      expect([res.status, /data-error="([A-Z_]+)"/.exec(res.text)?.[1]]).toEqual([status, code]);
    }
    expect(await snapshot(guild.id)).toEqual(before);
  });

  it('refuses a manager whose role was taken since the page opened 403, changing nothing', async () => {
    const { guild, client, s } = await signedIn();
    await client.get(`${s}/members/${guild.memberId}`);
    await db().updateTable('platform_members').set({ role_ids: [] }).where('guild_id', '=', guild.id).where('user_id', '=', guild.managerId).execute();
    const before = await snapshot(guild.id);
    const res = await client.post(`${s}/members/${guild.memberId}/adjustments`, { type: 'add', amount: '5' });
    expect([res.status, errorCodeOf(res)]).toEqual([403, 'NOT_A_SERVER_MANAGER']);
    expect(await snapshot(guild.id)).toEqual(before);
  });
});
