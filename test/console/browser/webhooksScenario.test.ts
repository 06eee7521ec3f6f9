import { describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../../src/webhooks/verifyWebhook.js';
import { webhookDeliveryWorkflowId } from '../../../src/webhooks/ids.js';
import { eventually } from '../../harness/eventually.js';
import { startReceiver } from '../../harness/receiver.js';
import { useWorkflowTestBed } from '../../harness/workflowTestBed.js';
import { managedGuild } from '../consoleClient.js';
import { expectAccessible, screenshot, signInLocally, useBrowser } from './browser.js';

const { database, app, gateway } = useWorkflowTestBed({ app: { env: { WEBHOOK_ALLOW_INSECURE_LOCAL: 'true', CONSOLE_SIGN_IN_LIMIT: '1000' } } });
const browser = useBrowser();

const deliveryOf = (eventId: string) => database.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', eventId).executeTakeFirst();

describe('webhooks in a real browser', { timeout: 120_000 }, () => {
  it('adds an endpoint at a local receiver, sends a test event that arrives signed, and shows the delivery with its attempt', async () => {
    const guild = await managedGuild(database.db, 'Hooks Guild');
    const receiver = await startReceiver([200]);
    try {
      const { page } = await browser.open();
      await signInLocally(page, app.baseUrl, guild.managerId);
      await page.goto(`${app.baseUrl}/console/servers/${guild.id}/webhooks`);
      await page.getByLabel('URL').fill(receiver.url);
      await page.getByRole('checkbox', { name: 'webhook.test' }).check();
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const secret = await page.getByLabel('Signing secret').inputValue();
      expect(secret).toMatch(/^whsec_/);
      await expectAccessible(page);
      await screenshot(page, 'webhook-added');

      await page.getByRole('link', { name: 'Back to the webhook endpoints' }).click();
      await expectAccessible(page);
      await screenshot(page, 'webhooks');
      await page.getByRole('button', { name: 'Send test event' }).click();
      await page.waitForURL(/\/deliveries$/);
      await eventually(async () => receiver.received.length, (n) => n === 1);
      const [request] = receiver.received;
      const verified = verifyWebhook(request!.body, request!.headers, secret);
      expect(verified).toMatchObject({ ok: true, event: { type: 'webhook.test' } });

      const eventId = JSON.parse(request!.body).id as string;
      await eventually(async () => (await deliveryOf(eventId))?.status, (s) => s === 'succeeded');
      await page.reload();
      await expectAccessible(page);
      await screenshot(page, 'deliveries');
      await page.getByRole('link', { name: /^#\d+$/ }).first().click();
      await expect.poll(() => page.locator('dd[data-status]').textContent()).toBe('succeeded');
      expect(await page.locator('tr[data-attempt="1"] td[data-status-code]').textContent()).toBe('200');
      expect(await page.locator('pre').textContent()).toContain(eventId);
      await expectAccessible(page);
      await screenshot(page, 'delivery');
    } finally {
      await receiver.close();
    }
  });

  it('shows a failed delivery with its attempt and retries it from the page', async () => {
    const guild = await managedGuild(database.db, 'Failing Guild');
    const receiver = await startReceiver([500, 204]);
    try {
      const { page } = await browser.open();
      await signInLocally(page, app.baseUrl, guild.managerId);
      await page.goto(`${app.baseUrl}/console/servers/${guild.id}/webhooks`);
      await page.getByLabel('URL').fill(receiver.url);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await page.getByRole('link', { name: 'Back to the webhook endpoints' }).click();
      await page.getByRole('button', { name: 'Send test event' }).click();
      await eventually(async () => receiver.received.length, (n) => n === 1);
      const eventId = JSON.parse(receiver.received[0]!.body).id as string;
      const delivery = await eventually(() => deliveryOf(eventId), (d) => d?.attempts === 1);
      // The schedule's next attempt is a minute away: end its run and mark the delivery failed, as after the 7th attempt.
      const run = gateway.client.workflow.getHandle(webhookDeliveryWorkflowId(delivery!.endpoint_id, eventId));
      await eventually(() => run.describe().then(() => true, () => false), (started) => started);
      await run.terminate('the test stands in for the rest of the schedule');
      await database.db.updateTable('webhook_deliveries').set({ status: 'failed', completed_at: new Date() }).where('id', '=', delivery!.id).execute();

      await page.goto(`${app.baseUrl}/console/servers/${guild.id}/webhooks/${delivery!.endpoint_id}/deliveries?status=failed`);
      await page.getByRole('link', { name: `#${delivery!.id}` }).click();
      expect(await page.locator('tr[data-attempt="1"] td[data-status-code]').textContent()).toBe('500');
      await expectAccessible(page);
      await screenshot(page, 'delivery-failed');
      await page.getByRole('button', { name: 'Retry this delivery' }).click();
      await eventually(async () => receiver.received.length, (n) => n === 2);
      await eventually(async () => (await deliveryOf(eventId))?.status, (s) => s === 'succeeded');
      await page.reload();
      expect(await page.locator('dd[data-status]').textContent()).toBe('succeeded');
      expect(await page.locator('tr[data-attempt="2"] td[data-status-code]').textContent()).toBe('204');
      const audit = await database.db.selectFrom('audit_log').select(['actor_type', 'actor_id']).where('action', '=', 'webhook.retryDelivery').where('guild_id', '=', guild.id).execute();
      expect(audit).toEqual([{ actor_type: 'console_user', actor_id: guild.managerId }]);
    } finally {
      await receiver.close();
    }
  });
});
