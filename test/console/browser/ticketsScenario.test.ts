import { describe, expect, it } from 'vitest';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { addTestMember } from '../../harness/fixtures.js';
import { ticketRequests } from '../../harness/tickets.js';
import { ticketGuild } from '../ticketBed.js';
import { expectAccessible, expectFitsWidth, screenshot, signInLocally, useBrowser } from './browser.js';

const NOW = new Date('2026-11-30T12:00:00.000Z');
const { db, app } = useApiTestBed({ now: NOW, temporal: true });
const { open, message, close } = ticketRequests(db, app, NOW);
const browser = useBrowser();

describe('tickets in a real browser', { timeout: 120_000 }, () => {
  it('posts a panel, comes back with a form error kept, reads a transcript and closes a ticket after its confirmation', async () => {
    const guild = await ticketGuild(db());
    const olga = await addTestMember(db(), guild, { username: 'olga' });
    const { ticketNo: done } = await open(guild, { userId: olga, subject: 'Refund' });
    await message(guild, done, { authorId: olga, content: 'my order is late' });
    await close(guild, done, { reason: 'refunded' });
    const { ticketNo } = await open(guild, { userId: olga, subject: 'Shipping', answers: [{ fieldId: 'order', label: 'Order number', value: 'A-1234' }] });

    const { page } = await browser.open();
    await signInLocally(page, app.baseUrl, guild.managerId);
    const base = `${app.baseUrl}/console/servers/${guild.id}/tickets`;
    await page.goto(`${base}/panels`);
    await expectAccessible(page);
    await screenshot(page, 'ticket-panels-empty');

    await page.getByRole('link', { name: 'New panel' }).click();
    await page.getByLabel('Channel', { exact: true }).selectOption({ label: '#general' });
    await page.getByLabel('Text').fill('Press the button to talk to staff.');
    await page.getByLabel('Button label').fill(' ');
    await page.getByRole('checkbox', { name: '@Staff' }).check();
    await page.getByRole('button', { name: 'Post the panel' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-error'))).toBe('INVALID_INPUT');
    expect(await page.getByLabel('Text').inputValue()).toBe('Press the button to talk to staff.');
    await expectAccessible(page);
    await screenshot(page, 'ticket-panel-error');
    await page.getByLabel('Button label').fill('Open a ticket');
    await page.getByLabel('Category where tickets open').selectOption({ label: 'Support (category)' });
    await page.getByRole('button', { name: 'Post the panel' }).click();
    await page.waitForURL(`${base}/panels`);
    await expect.poll(() => page.locator('tr[data-panel-id="1"]').count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'ticket-panels');
    await page.getByRole('link', { name: 'Edit panel #1' }).click();
    await expectAccessible(page);
    await screenshot(page, 'ticket-panel-edit');

    await page.goto(base);
    await expectAccessible(page);
    await screenshot(page, 'tickets');
    await page.getByRole('link', { name: `#${done}` }).click();
    await page.getByRole('link', { name: 'Read the transcript' }).click();
    await expect.poll(() => page.locator('tr[data-message-id]').count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'ticket-transcript');

    await page.goto(`${base}/${ticketNo}`);
    await expectAccessible(page);
    await screenshot(page, 'ticket');
    await page.getByRole('link', { name: 'Close this ticket…' }).click();
    await page.getByLabel('Reason (optional)').fill('Shipped today.');
    await expectAccessible(page);
    await screenshot(page, 'ticket-close');
    await page.getByRole('button', { name: 'Close the ticket' }).click();
    await page.waitForURL(`${base}/${ticketNo}`);
    await expect.poll(() => page.locator('dd[data-status="closed"]').count()).toBe(1);
    await expectAccessible(page);
  });

  it('is readable on a phone: no horizontal scrolling of the page, and still accessible', async () => {
    const guild = await ticketGuild(db());
    await open(guild, { subject: 'Phone' });
    const { page } = await browser.open();
    await page.setViewportSize({ width: 390, height: 844 });
    await signInLocally(page, app.baseUrl, guild.managerId);
    for (const path of ['tickets', 'tickets/1', 'tickets/panels', 'tickets/panels/new']) {
      await page.goto(`${app.baseUrl}/console/servers/${guild.id}/${path}`);
      await expectFitsWidth(page);
      await expectAccessible(page);
      await screenshot(page, `phone-${path.replaceAll('/', '-')}`);
    }
  });
});
