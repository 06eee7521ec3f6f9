import { describe, expect, it } from 'vitest';
import { insertCase } from '../../../db/moderation/cases.js';
import { findPlatformBan } from '../../../db/platform/moderation.js';
import { addTestMember } from '../../harness/fixtures.js';
import { newTestCase } from '../../harness/modCases.js';
import { createModerationGuild } from '../../harness/moderationGuild.js';
import { useWorkflowTestBed } from '../../harness/workflowTestBed.js';
import { expectAccessible, expectFitsWidth, screenshot, signInLocally, useBrowser } from './browser.js';

const { db, app } = useWorkflowTestBed();
const browser = useBrowser();

describe('moderation in a real browser', { timeout: 120_000 }, () => {
  it('lists cases, shows one with its timeline, keeps a wrong action on the form, and bans after the confirmation, the worker banning', async () => {
    const guild = await createModerationGuild(db());
    const managerId = await addTestMember(db(), guild, { username: 'boss', roleIds: [guild.roles.admin] });
    const target = await addTestMember(db(), guild, { username: 'spammer', roleIds: [guild.roles.member] });
    await insertCase(db(), newTestCase(guild.id, { userId: target, moderatorId: guild.moderatorId, reason: 'spam in #general' }));
    await insertCase(db(), newTestCase(guild.id, { action: 'timeout', userId: target, moderatorId: guild.moderatorId, reason: 'more spam', source: 'api', durationSeconds: 3_600 }));
    // More than a page of timeline (50 events) on case #1, so the case links its earlier events.
    const dms = Array.from({ length: 51 }, () => ({ guild_id: guild.id, case_number: 1, type: 'dm', actor_id: null, data: JSON.stringify({ status: 'failed' }), created_at: new Date('2026-05-01T10:00:01.000Z') }));
    await db().insertInto('moderation_case_events').values(dms).execute();
    const base = `${app.baseUrl}/console/servers/${guild.id}/moderation`;

    for (const width of [1100, 390]) {
      const { page } = await browser.open();
      await page.setViewportSize({ width, height: 844 });
      await signInLocally(page, app.baseUrl, managerId);
      const phone = width === 390 ? 'phone-' : '';
      await page.goto(base);
      await expectFitsWidth(page);
      await expectAccessible(page);
      await screenshot(page, `${phone}moderation`);
      // The member's cases found by name: the search lists them, each a link to the list filtered by them.
      await page.getByLabel('Member name').fill('spam');
      await page.getByRole('button', { name: 'Find the member' }).click();
      await page.waitForURL(/moderation\/members\?member-q=spam/);
      await expectFitsWidth(page);
      await expectAccessible(page);
      await screenshot(page, `${phone}moderation-find-member`);
      await page.getByRole('link', { name: 'spammer' }).click();
      await page.waitForURL(new RegExp(`userId=${target}`));
      expect(await page.locator('[data-filter="userId"]').textContent()).toContain('spammer');
      expect(await page.locator('[data-case]').count()).toBe(2);
      await expectAccessible(page);
      await page.getByRole('link', { name: '#1', exact: true }).click();
      await expectFitsWidth(page);
      await expectAccessible(page);
      await screenshot(page, `${phone}moderation-case`);
      if (phone) {
        await page.getByRole('link', { name: 'Earlier events' }).click();
        await page.waitForURL(/before=/);
        expect(await page.locator('li[data-event="created"]').count()).toBe(1);
        expect(await page.getByRole('link', { name: 'Earlier events' }).count()).toBe(0);
        await expectFitsWidth(page);
        await expectAccessible(page);
        await screenshot(page, 'phone-moderation-case-earlier');
        await page.goBack();
      }
      await page.getByRole('link', { name: 'Take an action on this member' }).click();
      expect(await page.getByRole('radio', { name: /spammer/ }).isChecked()).toBe(true);
      await expectFitsWidth(page);
      await expectAccessible(page);
      await screenshot(page, `${phone}moderation-action`);
    }

    const { page } = await browser.open();
    await signInLocally(page, app.baseUrl, managerId);
    // The member picked by name: the search (GET, no script needed) offers them as a radio carrying their id.
    await page.goto(`${base}/actions/new`);
    await page.getByLabel('Search by name').fill('SPAM');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/mod-member-q=SPAM/);
    expect(await page.getByRole('radio', { name: /spammer/ }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: /spammer/ }).getAttribute('value')).toBe(target);
    await expectAccessible(page);
    await screenshot(page, 'moderation-pick-member');
    await page.getByRole('radio', { name: 'Ban', exact: true }).check();
    await page.getByLabel('Duration', { exact: true }).fill('366');
    await page.getByLabel('Duration unit').selectOption('days');
    await page.getByLabel('Reason').fill('Raids.');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-error'))).toBe('INVALID_INPUT');
    expect(await page.getByLabel('Reason').inputValue()).toBe('Raids.');
    await expectAccessible(page);
    await screenshot(page, 'moderation-action-error');

    await page.getByLabel('Duration', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => page.locator('[data-confirm="ban"]').count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'moderation-confirm');
    await page.getByRole('button', { name: 'Ban spammer' }).click();
    await page.waitForURL(new RegExp(`/moderation/actions/mda_`));
    await expect.poll(async () => (await page.reload(), await page.locator('[data-status="done"]').count()), { timeout: 60_000 }).toBe(1);
    expect(await findPlatformBan(db(), guild.id, target)).toBeDefined();
    await expectAccessible(page);
    await screenshot(page, 'moderation-action-done');
  });
});
