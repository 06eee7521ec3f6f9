import { describe, expect, it } from 'vitest';
import { findForm } from '../../../db/applications/forms.js';
import { findSubmission } from '../../../db/applications/submissions.js';
import { upsertPlatformChannels } from '../../../db/platform/local.js';
import { createTestForm, fileTestSubmission } from '../../harness/applications.js';
import { eventually } from '../../harness/eventually.js';
import { addTestMember, snowflake } from '../../harness/fixtures.js';
import { createModerationGuild } from '../../harness/moderationGuild.js';
import { useWorkflowTestBed } from '../../harness/workflowTestBed.js';
import { expectAccessible, expectFitsWidth, screenshot, signInLocally, useBrowser } from './browser.js';

const { db, app } = useWorkflowTestBed();
const browser = useBrowser();

describe('applications in a real browser', { timeout: 120_000 }, () => {
  it('lists submissions, keeps a decision without a choice on the form, asks before accepting one, and accepts it, the worker applying it', async () => {
    const guild = await createModerationGuild(db());
    const managerId = await addTestMember(db(), guild, { username: 'boss', roleIds: [guild.roles.admin] });
    const form = await createTestForm(db(), guild.id, { acceptRoleIds: [guild.roles.helper] });
    const userId = await addTestMember(db(), guild, { username: 'ada', roleIds: [guild.roles.member] });
    const { number } = await fileTestSubmission(db(), guild.id, { form, userId, at: new Date() });

    for (const width of [1100, 390]) {
      const { page } = await browser.open();
      await page.setViewportSize({ width, height: 844 });
      await signInLocally(page, app.baseUrl, managerId);
      await page.goto(`${app.baseUrl}/console/servers/${guild.id}/applications`);
      await expectFitsWidth(page);
      await expectAccessible(page);
      await screenshot(page, width === 390 ? 'phone-applications' : 'applications');
      await page.getByRole('link', { name: `#${number}` }).click();
      await expectFitsWidth(page);
      await expectAccessible(page);
      await screenshot(page, width === 390 ? 'phone-application' : 'application');
      // The confirmation says what accepting does; Cancel brings the form back with the choice and reason kept.
      await page.getByRole('radio', { name: 'Accept' }).check();
      await page.getByLabel('Reason (optional)').fill('Welcome aboard.');
      await page.getByRole('button', { name: 'Review the decision' }).click();
      await page.waitForURL(/\/decision\/confirm\?/);
      await expect.poll(() => page.locator('[data-decision-effects] li').first().textContent()).toBe('ada is given the roles: Helper.');
      await expectFitsWidth(page);
      await expectAccessible(page);
      await screenshot(page, width === 390 ? 'phone-application-decision-confirm' : 'application-decision-confirm');
      await page.getByRole('link', { name: 'Cancel' }).click();
      await page.waitForURL(/\/applications\/\d+\?/);
      expect(await page.getByRole('radio', { name: 'Accept' }).isChecked()).toBe(true);
      expect(await page.getByLabel('Reason (optional)').inputValue()).toBe('Welcome aboard.');
      await expectFitsWidth(page);
    }
    expect(await findSubmission(db(), guild.id, number)).toMatchObject({ status: 'pending' });

    const { page } = await browser.open();
    await signInLocally(page, app.baseUrl, managerId);
    await page.goto(`${app.baseUrl}/console/servers/${guild.id}/applications/${number}`);
    await page.getByLabel('Reason (optional)').fill('Welcome aboard.');
    await page.getByRole('button', { name: 'Review the decision' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-error'))).toBe('INVALID_INPUT');
    expect(await page.getByLabel('Reason (optional)').inputValue()).toBe('Welcome aboard.');
    await expectAccessible(page);
    await screenshot(page, 'application-error');
    await page.getByRole('radio', { name: 'Accept' }).check();
    await page.getByRole('button', { name: 'Review the decision' }).click();
    await page.getByRole('button', { name: 'Accept the application' }).click();
    await page.waitForURL(`${app.baseUrl}/console/servers/${guild.id}/applications/${number}`);
    await eventually(() => findSubmission(db(), guild.id, number), (s) => s?.applying === false);
    await page.reload();
    await expect.poll(() => page.locator('dd[data-status="accepted"]').count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'application-accepted');
  });

  it('walks the forms and panels pages, edits a form and posts its panel', async () => {
    const guild = await createModerationGuild(db());
    const managerId = await addTestMember(db(), guild, { username: 'boss', roleIds: [guild.roles.admin] });
    const general = snowflake();
    await upsertPlatformChannels(db(), guild.id, [{ channelId: general, name: 'general', type: 'text', position: 0 }]);
    const form = await createTestForm(db(), guild.id);
    const base = `${app.baseUrl}/console/servers/${guild.id}/applications`;

    for (const width of [1100, 390]) {
      const { page } = await browser.open();
      await page.setViewportSize({ width, height: 844 });
      await signInLocally(page, app.baseUrl, managerId);
      for (const [path, name] of [
        ['forms', 'application-forms'],
        [`forms/${form.id}`, 'application-form'],
        ['panels/new', 'application-panel'],
      ] as const) {
        await page.goto(`${base}/${path}`);
        await expectFitsWidth(page);
        await expectAccessible(page);
        await screenshot(page, width === 390 ? `phone-${name}` : name);
      }
    }

    const { page } = await browser.open();
    await signInLocally(page, app.baseUrl, managerId);
    await page.goto(`${base}/forms/${form.id}`);
    // A role both given and removed passes the browser's own checks and comes back on the form.
    await page.getByLabel('Title').fill('Helpers');
    await page.getByRole('checkbox', { name: '@Helper' }).first().check();
    await page.getByRole('checkbox', { name: '@Helper' }).nth(1).check();
    await page.getByRole('button', { name: 'Save the form' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-error'))).toBe('INVALID_INPUT');
    expect(await page.getByLabel('Title').inputValue()).toBe('Helpers');
    await expectAccessible(page);
    await screenshot(page, 'application-form-error');
    await page.getByRole('checkbox', { name: '@Helper' }).nth(1).uncheck();
    await page.getByRole('button', { name: 'Save the form' }).click();
    await page.waitForURL(`${base}/forms`);
    expect(await findForm(db(), guild.id, form.id)).toMatchObject({ title: 'Helpers', acceptRoleIds: [guild.roles.helper] });

    await page.goto(`${base}/panels/new`);
    await page.getByLabel('Channel').selectOption({ label: '#general' });
    await page.getByLabel('Text').fill('Apply below.');
    await page.getByRole('button', { name: 'Post the panel' }).click();
    await page.waitForURL(`${base}/panels`);
    await expect.poll(() => page.locator('tr[data-panel="1"]').count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'application-panels');
    const [message] = await db().selectFrom('platform_messages').select(['channel_id', 'buttons']).where('guild_id', '=', guild.id).execute();
    expect(message).toEqual({ channel_id: general, buttons: [{ id: `application:apply:${form.id}`, label: 'Helpers' }] });
  });
});
