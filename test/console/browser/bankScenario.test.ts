import { describe, expect, it } from 'vitest';
import { upsertPlatformChannels } from '../../../db/platform/local.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { addTestMember, snowflake } from '../../harness/fixtures.js';
import { managedGuild } from '../consoleClient.js';
import { checkBothWidths, signInLocally, useBrowser } from './browser.js';

const { database, app } = useApiTestBed();
const browser = useBrowser();

const LONG_REASON = `https://example.com/bank/${'x'.repeat(150)}`;
const balanceOf = async (guildId: string, userId: string) =>
  (await database.db.selectFrom('bank_accounts').select('balance').where('guild_id', '=', guildId).where('user_id', '=', userId).executeTakeFirst())?.balance;

describe('the bank pages in a real browser', { timeout: 180_000 }, () => {
  it('sets the currency, finds a member by name, adds, asks before removing, keeps a refused amount on the form; each page at desktop and phone width', async () => {
    const guild = await managedGuild(database.db, 'Bank Guild');
    await database.db.updateTable('guilds').set({ features: ['bank'] }).where('id', '=', guild.id).execute();
    const channel = snowflake();
    await upsertPlatformChannels(database.db, guild.id, [{ channelId: channel, name: 'bank-log', type: 'text', position: 1 }]);
    const ada = await addTestMember(database.db, guild, { username: 'ada' });
    await database.db.insertInto('bank_accounts').values([{ guild_id: guild.id, user_id: guild.managerId, balance: 900, updated_at: new Date() }]).execute();
    const base = `${app.baseUrl}/console/servers/${guild.id}/bank`;

    const { page } = await browser.open();
    await signInLocally(page, app.baseUrl, guild.managerId);
    await page.goto(base);
    expect(await page.locator('tr[data-rank="1"]').textContent()).toContain('manager');
    await checkBothWidths(page, 'bank');

    await page.getByLabel('Currency name', { exact: true }).fill('star');
    await page.getByLabel('Currency plural', { exact: true }).fill('stars');
    await page.getByLabel('Currency emoji', { exact: true }).fill('⭐');
    await page.getByLabel('Starting balance', { exact: true }).fill('50');
    await page.getByLabel('Bank log channel', { exact: true }).selectOption({ label: '#bank-log' });
    await page.getByRole('button', { name: 'Save the bank settings' }).click();
    await page.waitForURL(base);
    expect(await database.db.selectFrom('bank_settings').selectAll().where('guild_id', '=', guild.id).executeTakeFirstOrThrow()).toMatchObject({
      currency_name: 'star',
      starting_balance: 50,
      log_channel_id: channel,
    });

    // Ada has no account yet: found by name (the server's member search), then picked from the results.
    await page.getByLabel('Member name', { exact: true }).fill('AD');
    await page.getByRole('button', { name: 'Find the member' }).click();
    await page.waitForURL(/\/members\?member-q=AD/);
    await checkBothWidths(page, 'bank-find');
    await page.getByRole('link', { name: 'ada', exact: true }).click();
    await page.waitForURL(`${base}/members/${ada}`);
    expect(await page.locator('[data-balance]').textContent()).toContain('⭐ 50 stars');
    await page.getByLabel('Amount').fill('25');
    await page.getByLabel('Reason').fill('event prize');
    await page.getByRole('button', { name: 'Apply the change' }).click();
    await page.waitForURL(`${base}/members/${ada}`);
    expect(await balanceOf(guild.id, ada)).toBe(75);
    await checkBothWidths(page, 'bank-member');

    await page.getByRole('radio', { name: /Remove from the balance/ }).check();
    await page.getByLabel('Amount').fill('80');
    await page.getByRole('button', { name: 'Apply the change' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-error'))).toBe('INSUFFICIENT_FUNDS');
    expect(await page.getByLabel('Amount').inputValue()).toBe('80');
    await checkBothWidths(page, 'bank-member-error');

    await page.getByLabel('Amount').fill('30');
    // A reason without a space (a link) must wrap on a phone, not widen the page.
    await page.getByLabel('Reason').fill(LONG_REASON);
    await page.getByRole('button', { name: 'Apply the change' }).click();
    await page.locator('[data-confirm-removal]').waitFor();
    expect(await page.locator('[data-confirm-removal]').textContent()).toContain('⭐ 45 stars');
    expect(await balanceOf(guild.id, ada)).toBe(75);
    await checkBothWidths(page, 'bank-remove-confirm');
    await page.getByRole('button', { name: 'Remove ⭐ 30 stars' }).click();
    await page.waitForURL(`${base}/members/${ada}`);
    expect(await balanceOf(guild.id, ada)).toBe(45);
    await checkBothWidths(page, 'bank-member-history');
  });

  it('says the bank is off and offers to turn it on', async () => {
    const guild = await managedGuild(database.db, 'Quiet Guild');
    await database.db.updateTable('guilds').set({ features: [] }).where('id', '=', guild.id).execute();
    const { page } = await browser.open();
    await signInLocally(page, app.baseUrl, guild.managerId);
    await page.goto(`${app.baseUrl}/console/servers/${guild.id}/bank`);
    await checkBothWidths(page, 'bank-off');
    await page.getByRole('button', { name: 'Turn Bank on' }).click();
    await page.waitForURL(`${app.baseUrl}/console/servers/${guild.id}/bank`);
    expect(await page.getByRole('button', { name: 'Save the bank settings' }).count()).toBe(1);
  });
});
