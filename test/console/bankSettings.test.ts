import { describe, expect, it } from 'vitest';
import { addTestMember, snowflake } from '../harness/fixtures.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { errorCodeOf, fieldErrorOf } from './consoleClient.js';
import { bankBed } from './bankBed.js';

// The bank page (leaderboard, feature off) and its settings (bankBed.ts); a member's balance and the adjustments are
// in bankAdjustments.test.ts. Nothing here starts a workflow: the bed has no worker.
const { db, app } = useApiTestBed({ env: { CONSOLE_SIGN_IN_LIMIT: '1000' } });
const { signedIn, consoleAudit, settingsRows, snapshot } = bankBed(db, app);
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
