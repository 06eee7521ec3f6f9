import { describe, expect, it } from 'vitest';
import { insertEndpoint } from '../../db/webhooks/webhooks.js';
import { eventEnvelope } from '../../src/events/contract.js';
import { eventually } from '../harness/eventually.js';
import { addTestMember, snowflake } from '../harness/fixtures.js';
import { startReceiver } from '../harness/receiver.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { errorCodeOf, fieldErrorOf } from './consoleClient.js';
import { bankBed } from './bankBed.js';

// A member's balance and history, and adjustments (bankBed.ts); the bank page and its settings are in
// bankSettings.test.ts. Adjustments start the event fan-out on a real worker: the webhook a console change emits is the API's.
const { db, app } = useWorkflowTestBed({ app: { env: { CONSOLE_SIGN_IN_LIMIT: '1000' } } });
const { signedIn, accounts, ledger, consoleAudit, snapshot } = bankBed(db, app);

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
