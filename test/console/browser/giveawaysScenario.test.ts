import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { findGiveaway } from '../../../db/giveaways/giveaways.js';
import { upsertPlatformChannels, upsertPlatformRoles } from '../../../db/platform/local.js';
import { enterGiveaway } from '../../../src/giveaways/enterGiveaway.js';
import { eventually } from '../../harness/eventually.js';
import { addTestMember, snowflake } from '../../harness/fixtures.js';
import { useWorkflowTestBed } from '../../harness/workflowTestBed.js';
import { managedGuild } from '../consoleClient.js';
import { expectAccessible, expectFitsWidth, screenshot, signInLocally, useBrowser } from './browser.js';

// The worker runs the giveaway workflow over the local platform: the start posts the message, the end and the reroll draw.
const { db, app } = useWorkflowTestBed();
const browser = useBrowser();

/** Checks the page (axe, no sideways scroll) and saves it as `name` (`phone-<name>` at phone width). */
async function visit(page: Page, name: string, phone = false) {
  await expectFitsWidth(page, name);
  await expectAccessible(page);
  await screenshot(page, phone ? `phone-${name}` : name);
}

describe('giveaways in a real browser', { timeout: 180_000 }, () => {
  it('starts a giveaway after a form error kept on the form, shows its entrants, ends it and rerolls it after their confirmations', async () => {
    const guild = await managedGuild(db(), 'Giveaway Guild');
    await upsertPlatformRoles(db(), guild.id, [{ roleId: snowflake(), name: 'VIP', position: 1 }]);
    await upsertPlatformChannels(db(), guild.id, [
      { channelId: snowflake(), name: 'giveaways', type: 'text', position: 0 },
      { channelId: snowflake(), name: 'news', type: 'announcement', position: 1 },
    ]);
    const base = `${app.baseUrl}/console/servers/${guild.id}/giveaways`;

    const { page } = await browser.open();
    await signInLocally(page, app.baseUrl, guild.managerId);
    await page.goto(base);
    await visit(page, 'giveaways-empty');
    await page.getByRole('link', { name: 'Start a giveaway' }).click();
    await visit(page, 'giveaway-start');
    await page.getByLabel('Channel', { exact: true }).selectOption({ label: '#giveaways' });
    await page.getByLabel('Prize').fill(' ');
    await page.getByLabel('Winners').fill('2');
    await page.getByRole('checkbox', { name: '@VIP' }).first().check();
    await page.getByRole('button', { name: 'Start the giveaway' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-error'))).toBe('INVALID_INPUT');
    expect(await page.getByLabel('Winners').inputValue()).toBe('2');
    await visit(page, 'giveaway-start-error');
    await page.getByLabel('Prize').fill('A year of Nitro');
    await page.getByRole('checkbox', { name: '@VIP' }).first().uncheck();
    await page.getByRole('button', { name: 'Start the giveaway' }).click();
    await page.waitForURL(/\/giveaways\/\d+$/);
    const id = Number(page.url().split('/').at(-1));
    await eventually(() => findGiveaway(db(), guild.id, id), (g) => g?.status === 'active');
    for (const username of ['ada', 'bob', 'cyd']) {
      const userId = await addTestMember(db(), guild, { username });
      const member = await app.deps.platform.getMember(guild.id, userId);
      await db()
        .transaction()
        .execute((trx) => enterGiveaway(trx, { guildId: guild.id, giveawayId: id, userId, member, at: new Date(), actor: { type: 'member', userId } }));
    }
    await page.reload();
    await expect.poll(() => page.locator('tr[data-entrant]').count()).toBe(3);
    await visit(page, 'giveaway');

    await page.getByRole('link', { name: 'End now and draw the winners' }).click();
    await visit(page, 'giveaway-end');
    await page.getByRole('button', { name: 'End the giveaway' }).click();
    await page.waitForURL(`${base}/${id}`);
    await expect.poll(() => page.locator('dd[data-status="ended"]').count()).toBe(1);
    await visit(page, 'giveaway-ended');
    await page.getByRole('link', { name: 'Reroll winners' }).click();
    await visit(page, 'giveaway-reroll');
    await page.getByRole('button', { name: 'Reroll' }).click();
    await page.waitForURL(`${base}/${id}`);
    await expect.poll(() => page.locator('tr[data-draw="2"]').count()).toBe(1);
    await page.goto(base);
    await expect.poll(() => page.locator(`tr[data-giveaway="${id}"]`).count()).toBe(1);
    await visit(page, 'giveaways');

    const phone = (await browser.open()).page;
    await phone.setViewportSize({ width: 390, height: 844 });
    await signInLocally(phone, app.baseUrl, guild.managerId);
    for (const [path, name] of [
      ['', 'giveaways'],
      ['/new', 'giveaway-start'],
      [`/${id}`, 'giveaway'],
      [`/${id}/reroll`, 'giveaway-reroll'],
    ] as const) {
      await phone.goto(`${base}${path}`);
      await visit(phone, name, true);
    }
  });
});
