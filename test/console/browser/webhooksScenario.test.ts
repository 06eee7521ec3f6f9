import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../../src/webhooks/verifyWebhook.js';
import { webhookDeliveryWorkflowId } from '../../../src/webhooks/ids.js';
import { eventually } from '../../harness/eventually.js';
import { startReceiver, type ReceivedRequest } from '../../harness/receiver.js';
import { useWorkflowTestBed } from '../../harness/workflowTestBed.js';
import { managedGuild } from '../consoleClient.js';
import { expectAccessible, screenshot, signInLocally, useBrowser } from './browser.js';

const { database, app, gateway } = useWorkflowTestBed({ app: { env: { WEBHOOK_ALLOW_INSECURE_LOCAL: 'true', CONSOLE_SIGN_IN_LIMIT: '1000' } } });
const browser = useBrowser();

const deliveryOf = (eventId: string) => database.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', eventId).executeTakeFirst();

/** Adds an endpoint at `url` from the list page and returns its signing secret, read from the result page. */
async function addEndpoint(page: Page, url: string): Promise<string> {
  await page.getByLabel('URL').fill(url);
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const secret = await page.getByLabel('Signing secret').inputValue();
  expect(secret).toMatch(/^whsec_/);
  return secret;
}

/** Sends a test event of `type` from the endpoint's test page; the redirect lands on its delivery, found by event id. */
async function sendTestEvent(page: Page, url: string, type: string): Promise<void> {
  await page.getByRole('link', { name: `Send a test event to ${url}` }).click();
  await page.getByLabel('Event type').selectOption(type);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Send the test event' }).click();
  await page.waitForURL(/\/deliveries\?event_id=evt_/);
}

/** A failed first attempt's retry run, ended as after its 7th attempt: the delivery stands failed. */
async function failForGood(eventId: string) {
  const delivery = await eventually(() => deliveryOf(eventId), (d) => d?.attempts === 1);
  const run = gateway.client.workflow.getHandle(webhookDeliveryWorkflowId(delivery!.endpoint_id, eventId));
  await eventually(() => run.describe().then(() => true, () => false), (started) => started);
  await run.terminate('the test stands in for the rest of the schedule');
  await database.db.updateTable('webhook_deliveries').set({ status: 'failed', completed_at: new Date() }).where('id', '=', delivery!.id).execute();
  return delivery!;
}

/** Which of `secrets` verifies each `v1=` value of the request, at its signing time. */
function verifiedBy(request: ReceivedRequest, secrets: string[]): string[][] {
  const now = new Date(Number(request.headers['service-webhook-timestamp']) * 1000);
  return String(request.headers['service-signature'])
    .split(' ')
    .map((value) => secrets.filter((secret) => verifyWebhook(request.body, { ...request.headers, 'service-signature': value }, secret, { now }).ok));
}

describe('webhooks in a real browser', { timeout: 120_000 }, () => {
  it('adds an endpoint at a local receiver, sends a test event that arrives signed, and shows the delivery with its attempt and headers', async () => {
    const guild = await managedGuild(database.db, 'Hooks Guild');
    const receiver = await startReceiver([200]);
    try {
      const { page } = await browser.open();
      await signInLocally(page, app.baseUrl, guild.managerId);
      await page.goto(`${app.baseUrl}/console/servers/${guild.id}/webhooks`);
      await page.getByRole('checkbox', { name: 'webhook.test' }).check();
      await expectAccessible(page);
      const secret = await addEndpoint(page, receiver.url);
      await expectAccessible(page);
      await screenshot(page, 'webhook-added');

      await page.getByRole('link', { name: 'Back to the webhook endpoints' }).click();
      await expectAccessible(page);
      await screenshot(page, 'webhooks');
      await sendTestEvent(page, receiver.url, 'webhook.test');
      // The delivery is written with the event: the page it lands on lists it at once.
      await expect.poll(() => page.locator('tr[data-delivery-id]').count()).toBe(1);
      await eventually(async () => receiver.received.length, (n) => n === 1);
      const [request] = receiver.received;
      expect(verifyWebhook(request!.body, request!.headers, secret)).toMatchObject({ ok: true, event: { type: 'webhook.test' } });

      const eventId = JSON.parse(request!.body).id as string;
      await eventually(async () => (await deliveryOf(eventId))?.status, (s) => s === 'succeeded');
      await page.reload();
      await expectAccessible(page);
      await screenshot(page, 'deliveries');
      await page.getByRole('link', { name: /^#\d+$/ }).first().click();
      await expect.poll(() => page.locator('dd[data-status]').textContent()).toBe('succeeded');
      expect(await page.locator('tr[data-attempt="1"] td[data-status-code]').textContent()).toBe('200');
      expect(await page.locator('tr[data-attempt="1"] td[data-request-headers]').textContent()).toContain(String(request!.headers['service-signature']));
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
      await addEndpoint(page, receiver.url);
      await page.getByRole('link', { name: 'Back to the webhook endpoints' }).click();
      await sendTestEvent(page, receiver.url, 'webhook.test');
      await eventually(async () => receiver.received.length, (n) => n === 1);
      const eventId = JSON.parse(receiver.received[0]!.body).id as string;
      const delivery = await failForGood(eventId);

      await page.goto(`${app.baseUrl}/console/servers/${guild.id}/webhooks/${delivery.endpoint_id}/deliveries?status=failed`);
      await page.getByRole('link', { name: `#${delivery.id}` }).click();
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

  it('edits an endpoint to another receiver, rotates its secret with a 24-hour overlap, and the next delivery verifies with either secret', async () => {
    const guild = await managedGuild(database.db, 'Rotating Guild');
    const first = await startReceiver([200]);
    const second = await startReceiver([200]);
    try {
      const { page } = await browser.open();
      await signInLocally(page, app.baseUrl, guild.managerId);
      await page.goto(`${app.baseUrl}/console/servers/${guild.id}/webhooks`);
      const oldSecret = await addEndpoint(page, first.url);
      await page.getByRole('link', { name: 'Back to the webhook endpoints' }).click();

      await page.getByRole('link', { name: `Edit ${first.url}` }).click();
      await page.getByLabel('URL').fill(second.url);
      await page.getByLabel('Description (optional)').fill('Moved to the new receiver');
      await expectAccessible(page);
      await screenshot(page, 'webhook-edit');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect.poll(() => page.locator('code[data-endpoint-url]').textContent()).toBe(second.url);
      expect(await page.locator('dd[data-description]').textContent()).toBe('Moved to the new receiver');

      await page.getByRole('link', { name: 'Rotate secret…' }).click();
      await expectAccessible(page);
      await screenshot(page, 'webhook-rotate-confirm');
      await page.getByRole('radio', { name: /keeps signing for 24 hours/ }).check();
      await page.getByRole('button', { name: 'Rotate the secret' }).click();
      const newSecret = await page.getByLabel('Signing secret').inputValue();
      expect(newSecret).not.toBe(oldSecret);
      expect(await page.locator('main').textContent()).toContain('the old secret also signs until');
      await expectAccessible(page);
      await screenshot(page, 'webhook-rotated');
      // A reload shows the secret no more and rotates nothing.
      await page.reload();
      expect(await page.locator('[data-secret-gone]').count()).toBe(1);
      const stored = await database.db.selectFrom('webhook_endpoints').select(['secret', 'previous_secret']).where('guild_id', '=', guild.id).executeTakeFirstOrThrow();
      expect(stored).toEqual({ secret: newSecret, previous_secret: oldSecret });

      await page.goto(`${app.baseUrl}/console/servers/${guild.id}/webhooks`);
      await sendTestEvent(page, second.url, 'members.joined');
      await eventually(async () => second.received.length, (n) => n === 1);
      expect(first.received).toHaveLength(0);
      expect(JSON.parse(second.received[0]!.body)).toMatchObject({ type: 'members.joined', data: { userId: expect.any(String) } });
      expect(verifiedBy(second.received[0]!, [newSecret, oldSecret])).toEqual([[newSecret], [oldSecret]]);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('finds a failed delivery in the server-wide view, recovers everything failed since a time from the endpoint, and asks before disabling', async () => {
    const guild = await managedGuild(database.db, 'Recovering Guild');
    const receiver = await startReceiver([503, 200]);
    try {
      const { page } = await browser.open();
      await signInLocally(page, app.baseUrl, guild.managerId);
      await page.goto(`${app.baseUrl}/console/servers/${guild.id}/webhooks`);
      await addEndpoint(page, receiver.url);
      await page.getByRole('link', { name: 'Back to the webhook endpoints' }).click();
      await sendTestEvent(page, receiver.url, 'webhook.test');
      await eventually(async () => receiver.received.length, (n) => n === 1);
      const eventId = JSON.parse(receiver.received[0]!.body).id as string;
      const delivery = await failForGood(eventId);

      await page.goto(`${app.baseUrl}/console/servers/${guild.id}/webhooks`);
      await page.getByRole('link', { name: 'Failed deliveries of every endpoint' }).click();
      await expect.poll(() => page.locator(`tr[data-delivery-id="${delivery.id}"] td[data-last-status-code]`).textContent()).toBe('503');
      await expectAccessible(page);
      await screenshot(page, 'deliveries-failed-everywhere');

      await page.getByRole('link', { name: receiver.url }).first().click();
      await expect.poll(() => page.locator('svg[data-chart="attempts-by-hour"] rect[data-outcome="rejected"]').count()).toBe(1);
      await expectAccessible(page);
      await screenshot(page, 'webhook-endpoint');
      await page.getByRole('link', { name: 'Recover failed deliveries…' }).first().click();
      await expectAccessible(page);
      await screenshot(page, 'webhook-recover');
      await page.getByRole('button', { name: 'Recover failed deliveries' }).click();
      await eventually(async () => receiver.received.length, (n) => n === 2);
      await eventually(async () => (await deliveryOf(eventId))?.status, (s) => s === 'succeeded');
      expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
      const recovered = await database.db.selectFrom('audit_log').select('data').where('action', '=', 'webhook.recover').where('guild_id', '=', guild.id).execute();
      expect(recovered).toEqual([{ data: expect.objectContaining({ deliveries: 1 }) }]);

      await page.goto(`${app.baseUrl}/console/servers/${guild.id}/webhooks`);
      await page.getByRole('link', { name: `Disable ${receiver.url}` }).click();
      expect(await page.locator('[data-warning="lost-events"]').textContent()).toContain('Events raised while it is disabled are never delivered');
      await expectAccessible(page);
      await screenshot(page, 'webhook-disable-confirm');
      await page.getByRole('button', { name: 'Disable the endpoint' }).click();
      await expect.poll(() => page.getByRole('button', { name: `Enable ${receiver.url}` }).count()).toBe(1);
    } finally {
      await receiver.close();
    }
  });
});
