import { describe, expect, it } from 'vitest';
import { upsertPlatformRoles } from '../../../db/platform/local.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { addTestMember, snowflake } from '../../harness/fixtures.js';
import { managedGuild } from '../consoleClient.js';
import { checkBothWidths, signInLocally, useBrowser } from './browser.js';

const { database, app } = useApiTestBed();
const browser = useBrowser();

describe('the invites pages in a real browser', { timeout: 180_000 }, () => {
  it('walks the leaderboard, a member with a bonus, seasons and milestone rewards, forms without JavaScript tricks', async () => {
    const guild = await managedGuild(database.db, 'Invites Guild');
    await database.db.updateTable('guilds').set({ features: ['invites'] }).where('id', '=', guild.id).execute();
    const reward = snowflake();
    await upsertPlatformRoles(database.db, guild.id, [{ roleId: reward, name: 'Recruiter', position: 1 }]);
    const ada = await addTestMember(database.db, guild, { username: 'ada' });
    // A name of 32 characters without a space (the longest Discord allows) must wrap on a phone.
    const adelaide = await addTestMember(database.db, guild, { username: 'adelaide_the_longest_named_membr' });
    await database.db.insertInto('invite_members').values({ guild_id: guild.id, user_id: ada, verified: 4, total: 5, pending: 1, updated_at: new Date() }).execute();
    const base = `${app.baseUrl}/console/servers/${guild.id}/invites`;

    const { page } = await browser.open();
    await signInLocally(page, app.baseUrl, guild.managerId);
    await page.goto(base);
    expect(await page.locator('tr[data-rank="1"]').textContent()).toContain('ada');
    await checkBothWidths(page, 'invites');

    // A member's page from the leaderboard; a refused amount stays on the form.
    await page.getByRole('link', { name: 'ada' }).click();
    await page.waitForURL(`${base}/members/${ada}`);
    await checkBothWidths(page, 'invites-member');
    await page.getByLabel('Amount').fill('lots');
    await page.getByRole('button', { name: 'Give the bonus' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-error'))).toBe('INVALID_INPUT');
    expect(await page.getByLabel('Amount').inputValue()).toBe('lots');
    await checkBothWidths(page, 'invites-bonus-error');
    await page.getByLabel('Amount').fill('3');
    await page.getByRole('button', { name: 'Give the bonus' }).click();
    await page.waitForURL(`${base}/members/${ada}`);
    expect(await page.locator('dd[data-invites]').textContent()).toBe('7');
    // Any member by name through the finder (the member search), not only from the leaderboard.
    await page.goto(`${base}/members?member-q=ad`);
    expect(await page.locator(`main a[href$="/invites/members/${ada}"]`).count()).toBeGreaterThan(0);
    await checkBothWidths(page, 'invites-find');
    await page.locator(`main a[href$="/invites/members/${adelaide}"]`).click();
    await page.waitForURL(`${base}/members/${adelaide}`);
    await checkBothWidths(page, 'invites-member-long-name');

    // Seasons: start one, then end it behind its confirmation.
    await page.goto(`${base}/seasons`);
    await checkBothWidths(page, 'invites-seasons-empty');
    await page.getByRole('link', { name: 'Start a season…' }).click();
    await checkBothWidths(page, 'invites-season-start');
    await page.getByLabel('Name (optional)').fill('Spring');
    await page.getByRole('button', { name: 'Start the season' }).click();
    await page.waitForURL(`${base}/seasons`);
    await checkBothWidths(page, 'invites-seasons');
    await page.getByRole('link', { name: 'End this season…' }).click();
    await checkBothWidths(page, 'invites-season-end');
    await page.getByRole('button', { name: 'End the season' }).click();
    await page.waitForURL(`${base}/seasons`);
    expect(await database.db.selectFrom('invite_seasons').select(['number', 'name']).where('guild_id', '=', guild.id).where('ended_at', 'is not', null).execute()).toEqual([{ number: 1, name: 'Spring' }]);

    // Milestone rewards: the role picked by name, then edit and remove pages.
    await page.goto(`${base}/milestones`);
    await checkBothWidths(page, 'invites-milestones-empty');
    await page.getByLabel('Invites', { exact: true }).fill('10');
    await page.getByLabel('Role given').selectOption({ label: '@Recruiter' });
    await page.getByRole('button', { name: 'Add the milestone' }).click();
    await page.waitForURL(`${base}/milestones`);
    await checkBothWidths(page, 'invites-milestones');
    await page.getByRole('link', { name: /^Edit the milestone at 10 invites/ }).click();
    await checkBothWidths(page, 'invites-milestone-edit');
    await page.goto(`${base}/milestones`);
    await page.getByRole('link', { name: /^Remove the milestone at 10 invites/ }).click();
    await checkBothWidths(page, 'invites-milestone-remove');
    await page.getByRole('button', { name: 'Remove the milestone' }).click();
    await page.waitForURL(`${base}/milestones`);
    expect(await database.db.selectFrom('invite_milestones').select('invites').where('guild_id', '=', guild.id).execute()).toEqual([]);

    // Off: the page offers the switch instead.
    await database.db.updateTable('guilds').set({ features: [] }).where('id', '=', guild.id).execute();
    await page.goto(base);
    await checkBothWidths(page, 'invites-off');
  });
});
