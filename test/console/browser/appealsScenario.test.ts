import { describe, expect, it } from 'vitest';
import { findAppeal } from '../../../db/appeals/appeals.js';
import { upsertPlatformChannels } from '../../../db/platform/local.js';
import { banPlatformUser, findPlatformBan } from '../../../db/platform/moderation.js';
import { fileTestAppeal } from '../../harness/appeals.js';
import { eventually } from '../../harness/eventually.js';
import { addTestMember, snowflake } from '../../harness/fixtures.js';
import { createModerationGuild } from '../../harness/moderationGuild.js';
import { useWorkflowTestBed } from '../../harness/workflowTestBed.js';
import { expectAccessible, expectFitsWidth, screenshot, signInLocally, useBrowser } from './browser.js';

const { db, app } = useWorkflowTestBed();
const browser = useBrowser();

describe('ban appeals in a real browser', { timeout: 120_000 }, () => {
  it('lists the queue, keeps a decision without a choice on the form, asks before approving one, and approves it, the worker unbanning', async () => {
    const guild = await createModerationGuild(db());
    const managerId = await addTestMember(db(), guild, { username: 'boss', roleIds: [guild.roles.admin] });
    await upsertPlatformChannels(db(), guild.id, [{ channelId: snowflake(), name: 'general', type: 'text', position: 0 }]);
    const userId = snowflake();
    await banPlatformUser(db(), { guildId: guild.id, userId, reason: 'spam' });
    const answers = [{ id: 'why', type: 'paragraph', label: 'Why should we unban you?', value: 'I changed.' }];
    const { number } = await fileTestAppeal(db(), guild.id, { userId, userTag: 'ada', banReason: 'spam', answers, at: new Date() });
    // More than a page of conversation (50 messages), so the appeal links its earlier messages.
    const at = new Date('2026-11-20T10:00:00.000Z');
    const said = Array.from({ length: 52 }, (_, i) => ({ guild_id: guild.id, appeal_number: number, author: 'user' as const, author_id: userId, text: `Message ${i + 1}: please reconsider.`, created_at: new Date(at.getTime() + i * 60_000) }));
    await db().insertInto('appeal_messages').values(said).execute();

    for (const width of [1100, 390]) {
      const { page } = await browser.open();
      await page.setViewportSize({ width, height: 844 });
      await signInLocally(page, app.baseUrl, managerId);
      await page.goto(`${app.baseUrl}/console/servers/${guild.id}/appeals`);
      await expectFitsWidth(page);
      await expectAccessible(page);
      await screenshot(page, width === 390 ? 'phone-appeals' : 'appeals');
      await page.getByRole('link', { name: `#${number}` }).click();
      await expectFitsWidth(page);
      await expectAccessible(page);
      await screenshot(page, width === 390 ? 'phone-appeal' : 'appeal');
      // The confirmation says what approving does; Cancel brings the form back with the choice and reason kept.
      await page.getByRole('radio', { name: 'Approve (unban)' }).check();
      await page.getByLabel('Reason').fill('Second chance.');
      await page.getByRole('button', { name: 'Review the decision' }).click();
      await page.waitForURL(/\/decision\/confirm\?/);
      await expect.poll(() => page.locator('[data-decision-effects] li').first().textContent()).toBe("ada's ban is lifted on Discord (when they are still banned).");
      await expectFitsWidth(page);
      await expectAccessible(page);
      await screenshot(page, width === 390 ? 'phone-appeal-decision-confirm' : 'appeal-decision-confirm');
      await page.getByRole('link', { name: 'Cancel' }).click();
      await page.waitForURL(/\/appeals\/\d+\?/);
      expect(await page.getByRole('radio', { name: 'Approve (unban)' }).isChecked()).toBe(true);
      expect(await page.getByLabel('Reason').inputValue()).toBe('Second chance.');
      await expectFitsWidth(page);
      if (width === 390) {
        await page.getByRole('link', { name: 'Earlier messages' }).click();
        await page.waitForURL(/before=/);
        expect(await page.getByText('Message 2: please reconsider.').count()).toBe(1);
        expect(await page.getByRole('link', { name: 'Earlier messages' }).count()).toBe(0);
        await expectFitsWidth(page);
        await expectAccessible(page);
        await screenshot(page, 'phone-appeal-earlier');
      }
    }
    expect(await findAppeal(db(), guild.id, number)).toMatchObject({ status: 'open' });

    const { page } = await browser.open();
    await signInLocally(page, app.baseUrl, managerId);
    await page.goto(`${app.baseUrl}/console/servers/${guild.id}/appeals/${number}`);
    await page.getByLabel('Reason').fill('Second chance.');
    await page.getByRole('button', { name: 'Review the decision' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-error'))).toBe('INVALID_INPUT');
    expect(await page.getByLabel('Reason').inputValue()).toBe('Second chance.');
    await expectAccessible(page);
    await screenshot(page, 'appeal-error');
    await page.getByRole('radio', { name: 'Approve (unban)' }).check();
    await page.getByRole('button', { name: 'Review the decision' }).click();
    await page.getByRole('button', { name: 'Approve and unban' }).click();
    await page.waitForURL(`${app.baseUrl}/console/servers/${guild.id}/appeals/${number}`);
    await eventually(() => findAppeal(db(), guild.id, number), (a) => a?.applying === false);
    expect(await findPlatformBan(db(), guild.id, userId)).toBeUndefined();
    await page.reload();
    await expect.poll(() => page.locator('dd[data-status="approved"]').count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'appeal-approved');
  });
});
