import { describe, expect, it } from 'vitest';
import { upsertPlatformChannels } from '../../../db/platform/local.js';
import { upsertPlatformRoles } from '../../../db/platform/local.js';
import { useWorkflowTestBed } from '../../harness/workflowTestBed.js';
import { addTestMember, snowflake } from '../../harness/fixtures.js';
import { managedGuild } from '../consoleClient.js';
import { checkBothWidths, signInLocally, useBrowser } from './browser.js';

const LONG_REASON = `https://example.com/levels/${'x'.repeat(150)}`;

// A worker applies the XP change asked in the page, so its page shows it done.
const { database, app } = useWorkflowTestBed();
const browser = useBrowser();

describe('the levels page in a real browser', { timeout: 120_000 }, () => {
  it('sets the announcement with the channel picked by name, keeps a refused message on the form, and lists the leaderboard', async () => {
    const guild = await managedGuild(database.db, 'Levels Guild');
    await database.db.updateTable('guilds').set({ features: ['levels'] }).where('id', '=', guild.id).execute();
    const channel = snowflake();
    await upsertPlatformChannels(database.db, guild.id, [{ channelId: channel, name: 'level-ups', type: 'text', position: 1 }]);
    const ada = await addTestMember(database.db, guild, { username: 'ada' });
    await database.db.insertInto('level_members').values([{ guild_id: guild.id, user_id: ada, xp: 1_200 }, { guild_id: guild.id, user_id: guild.managerId, xp: 300 }]).execute();

    const { page } = await browser.open();
    await signInLocally(page, app.baseUrl, guild.managerId);
    await page.goto(`${app.baseUrl}/console/servers/${guild.id}/levels`);
    expect(await page.locator('tr[data-rank="1"]').textContent()).toContain('ada');
    await checkBothWidths(page, 'levels');

    await page.getByRole('radio', { name: 'In the announcement channel' }).check();
    await page.getByLabel('Announcement channel', { exact: true }).selectOption({ label: '#level-ups' });
    await page.getByLabel('Message', { exact: true }).fill('Bravo {member}');
    await page.getByRole('button', { name: 'Save the announcement' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-error'))).toBe('INVALID_TEMPLATE');
    expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe('Bravo {member}');
    await checkBothWidths(page, 'levels-error');

    await page.getByLabel('Message', { exact: true }).fill('Bravo {user}, level {level}!');
    await page.getByRole('button', { name: 'Save the announcement' }).click();
    await page.waitForURL(`${app.baseUrl}/console/servers/${guild.id}/levels`);
    const saved = await database.db.selectFrom('level_settings').selectAll().where('guild_id', '=', guild.id).executeTakeFirstOrThrow();
    expect(saved).toMatchObject({ announce_to: 'channel', announce_channel_id: channel, announce_template: 'Bravo {user}, level {level}!' });
  });

  it('sets what members earn, a no-XP channel and a reward role, then changes a member\'s XP (a removal after its confirmation) and shows it done; each page at desktop and phone width', async () => {
    const guild = await managedGuild(database.db, 'Rules Guild');
    await database.db.updateTable('guilds').set({ features: ['levels'] }).where('id', '=', guild.id).execute();
    const spam = snowflake();
    const regular = snowflake();
    await upsertPlatformChannels(database.db, guild.id, [{ channelId: spam, name: 'bot-spam', type: 'text', position: 1 }]);
    await upsertPlatformRoles(database.db, guild.id, [{ roleId: regular, name: 'Regular', position: 1 }]);
    const ada = await addTestMember(database.db, guild, { username: 'ada' });
    await database.db.insertInto('level_members').values({ guild_id: guild.id, user_id: ada, xp: 90 }).execute();

    const { page } = await browser.open();
    await signInLocally(page, app.baseUrl, guild.managerId);
    const levels = `${app.baseUrl}/console/servers/${guild.id}/levels`;
    await page.goto(levels);
    await page.getByLabel('XP per message', { exact: true }).fill('25');
    await page.getByRole('radio', { name: /^Replace/ }).check();
    await page.getByRole('button', { name: 'Save what members earn' }).click();
    await page.waitForURL(levels);
    await page.getByLabel('Channel', { exact: true }).selectOption({ label: '#bot-spam' });
    await page.getByRole('button', { name: 'Add the channel' }).click();
    await page.waitForURL(levels);
    await page.getByLabel('Level', { exact: true }).fill('1');
    await page.getByLabel('Role given', { exact: true }).selectOption({ label: '@Regular' });
    await page.getByRole('button', { name: 'Add the reward' }).click();
    await page.waitForURL(levels);
    // The browser checks the numbers' bounds itself; the same role at a second level is the server's refusal.
    await page.getByLabel('Level', { exact: true }).fill('2');
    await page.getByLabel('Role given', { exact: true }).selectOption({ label: '@Regular' });
    await page.getByRole('button', { name: 'Add the reward' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-error'))).toBe('REWARD_EXISTS');
    expect(await page.getByLabel('Level', { exact: true }).inputValue()).toBe('2');
    await checkBothWidths(page, 'levels-rules-error');
    const saved = await database.db.selectFrom('level_settings').selectAll().where('guild_id', '=', guild.id).executeTakeFirstOrThrow();
    expect(saved).toMatchObject({ xp_per_message: 25, remove_previous_rewards: true, no_xp_channel_ids: [spam] });
    expect(await page.locator(`tr[data-reward="1:${regular}"]`).textContent()).toContain('@Regular');
    await checkBothWidths(page, 'levels-rules');

    // Any member by name through the finder (the member search), not only from the leaderboard.
    await page.getByLabel('Member name', { exact: true }).fill('AD');
    await page.getByRole('button', { name: 'Find the member' }).click();
    await page.waitForURL(/\/levels\/members\?member-q=AD/);
    await checkBothWidths(page, 'levels-find');
    await page.getByRole('link', { name: 'ada', exact: true }).click();
    await page.waitForURL(`${levels}/members/${ada}`);
    await checkBothWidths(page, 'levels-member');
    await page.getByLabel('Amount', { exact: true }).fill('20');
    await page.getByLabel('Reason (optional)').fill('Helped at the event');
    await page.getByRole('button', { name: 'Change the XP' }).click();
    await page.waitForURL(/\/levels\/xp-changes\/xpc_/);
    // The change is applied by the worker; the page shows its status as the API's poll does.
    await expect.poll(async () => (await page.reload(), await page.locator('[data-xp-status]').getAttribute('data-xp-status')), { timeout: 60_000 }).toBe('done');
    expect(await page.locator('[data-xp-result]').textContent()).toContain('Level 0 → 1, 110 XP.');
    expect(await page.locator('[data-xp-reason]').textContent()).toBe('Helped at the event');
    await checkBothWidths(page, 'levels-xp-change');

    // A removal asks first, saying where the XP and level go; Cancel brings the values back to the form.
    await page.goto(`${levels}/members/${ada}`);
    await page.getByLabel('Remove (you confirm next)').check();
    await page.getByLabel('Amount', { exact: true }).fill('30');
    // A reason without a space (a link) must wrap on a phone, on the confirmation and the change's page.
    await page.getByLabel('Reason (optional)').fill(LONG_REASON);
    await page.getByRole('button', { name: 'Change the XP' }).click();
    await page.waitForURL(/\/xp-changes\/confirm\?/);
    expect(await page.locator('[data-confirm-xp-change]').textContent()).toContain('ada goes from 110 XP (level 1) to 80 XP (level 0)');
    await checkBothWidths(page, 'levels-xp-confirm');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL(new RegExp(`/levels/members/${ada}\\?`));
    expect(await page.getByLabel('Amount', { exact: true }).inputValue()).toBe('30');
    expect(await page.getByLabel('Remove (you confirm next)').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Change the XP' }).click();
    await page.getByRole('button', { name: 'Remove 30 XP' }).click();
    await page.waitForURL(/\/levels\/xp-changes\/xpc_/);
    await expect.poll(async () => (await page.reload(), await page.locator('[data-xp-status]').getAttribute('data-xp-status')), { timeout: 60_000 }).toBe('done');
    expect(await page.locator('[data-xp-result]').textContent()).toContain('Level 1 → 0, 80 XP.');
    expect(await page.locator('[data-xp-reason]').textContent()).toBe(LONG_REASON);
    await checkBothWidths(page, 'levels-xp-change-long-reason');
  });
});
