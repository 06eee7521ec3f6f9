import { describe, expect, it } from 'vitest';
import { upsertPlatformChannels } from '../../../db/platform/local.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { addTestMember, snowflake } from '../../harness/fixtures.js';
import { managedGuild } from '../consoleClient.js';
import { expectAccessible, screenshot, signInLocally, useBrowser } from './browser.js';

const { database, app } = useApiTestBed();
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
    await expectAccessible(page);
    await screenshot(page, 'levels');

    await page.getByRole('radio', { name: 'In the announcement channel' }).check();
    await page.getByLabel('Announcement channel', { exact: true }).selectOption({ label: '#level-ups' });
    await page.getByLabel('Message', { exact: true }).fill('Bravo {member}');
    await page.getByRole('button', { name: 'Save the announcement' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-error'))).toBe('INVALID_TEMPLATE');
    expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe('Bravo {member}');
    await expectAccessible(page);
    await screenshot(page, 'levels-error');

    await page.getByLabel('Message', { exact: true }).fill('Bravo {user}, level {level}!');
    await page.getByRole('button', { name: 'Save the announcement' }).click();
    await page.waitForURL(`${app.baseUrl}/console/servers/${guild.id}/levels`);
    const saved = await database.db.selectFrom('level_settings').selectAll().where('guild_id', '=', guild.id).executeTakeFirstOrThrow();
    expect(saved).toMatchObject({ announce_to: 'channel', announce_channel_id: channel, announce_template: 'Bravo {user}, level {level}!' });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectAccessible(page);
    await screenshot(page, 'levels-phone');
  });
});
