import { describe, expect, it } from 'vitest';
import { insertEvent } from '../../../db/shared/events.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { managedGuild } from '../consoleClient.js';
import { expectAccessible, expectFitsWidth, screenshot, signInLocally, useBrowser } from './browser.js';

const NOW = new Date('2026-03-10T12:00:00Z');
const { database, app } = useApiTestBed({ now: NOW });
const browser = useBrowser();
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 86_400_000);

describe('the overview in a real browser', { timeout: 120_000 }, () => {
  it("is a manager's first page of a server: plan, features with their switches, pictures and recent activity, at desktop and phone width", async () => {
    const guild = await managedGuild(database.db, 'Overview Guild');
    await database.db.updateTable('guilds').set({ features: ['levels', 'bank', 'members'] }).where('id', '=', guild.id).execute();
    for (const [n, type] of [[1, 'members.joined'], [1, 'members.joined'], [2, 'members.joined'], [2, 'members.left'], [5, 'members.joined']] as const) {
      await insertEvent(database.db, { type, guildId: guild.id, createdAt: daysAgo(n), data: {} });
    }
    const activity = (xpEarned: number, n: number) => ({ guild_id: guild.id, actor_type: 'system' as const, action: 'levels.activity', data: JSON.stringify({ xpEarned }), created_at: daysAgo(n) });
    await database.db.insertInto('audit_log').values([activity(40, 1), activity(25, 2), activity(60, 4)]).execute();

    const { page } = await browser.open();
    await signInLocally(page, app.baseUrl, guild.managerId);
    await page.getByRole('link', { name: 'Overview Guild' }).click();
    await page.waitForURL(`${app.baseUrl}/console/servers/${guild.id}/overview`);
    expect(await page.locator('[data-chart="members-by-day"] rect[data-series="joined"]').count()).toBe(3);
    await expectAccessible(page);
    await screenshot(page, 'overview');

    await page.getByRole('button', { name: 'Turn Shop on' }).click();
    await page.waitForURL(`${app.baseUrl}/console/servers/${guild.id}/overview`);
    await expect.poll(() => page.locator('li[data-feature="shop"]').getAttribute('data-on')).toBe('true');
    // Turning off asks first: the confirmation says what stops; Cancel changes nothing.
    const featuresNow = async () => (await database.db.selectFrom('guilds').select('features').where('id', '=', guild.id).executeTakeFirstOrThrow()).features;
    await page.getByRole('button', { name: 'Turn Levels off' }).click();
    await page.waitForURL(`${app.baseUrl}/console/servers/${guild.id}/overview/features/levels/off?then=overview`);
    expect(await page.locator('[data-feature-off-effects="levels"] li').count()).toBe(3);
    await expectAccessible(page);
    await screenshot(page, 'feature-off-confirm');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL(`${app.baseUrl}/console/servers/${guild.id}/overview`);
    expect(await featuresNow()).toEqual(['bank', 'levels', 'shop', 'members']);

    // At phone width, every page fits without sideways scrolling; there the switch is confirmed.
    await page.setViewportSize({ width: 390, height: 844 });
    await expectFitsWidth(page);
    await page.getByRole('button', { name: 'Turn Levels off' }).click();
    await page.waitForURL(/\/overview\/features\/levels\/off\?/);
    await expectFitsWidth(page);
    await expectAccessible(page);
    await screenshot(page, 'phone-feature-off-confirm');
    await page.getByRole('button', { name: 'Turn Levels off' }).click();
    await page.waitForURL(`${app.baseUrl}/console/servers/${guild.id}/overview`);
    await expect.poll(() => page.locator('li[data-feature="levels"]').getAttribute('data-on')).toBe('false');
    expect(await featuresNow()).toEqual(['bank', 'shop', 'members']);
    await expect.poll(() => page.locator('ul.recent code').first().textContent()).toBe('guild.update');

    await page.locator('[data-chart="xp-by-day"] summary').click();
    await expectFitsWidth(page);
    await expectAccessible(page);
    await screenshot(page, 'overview-phone');
  });
});
