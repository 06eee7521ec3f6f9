import { describe, expect, it } from 'vitest';
import { shopRequests } from '../../api/shop/shopBed.js';
import { upsertPlatformChannels } from '../../../db/platform/local.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { snowflake } from '../../harness/fixtures.js';
import { shopGuild } from '../shopBed.js';
import { expectAccessible, expectFitsWidth, screenshot, signInLocally, useBrowser } from './browser.js';

const NOW = new Date('2026-11-30T12:00:00.000Z');
const { db, app } = useApiTestBed({ now: NOW, temporal: true });
const { item, member, buy } = shopRequests(db, app);
const browser = useBrowser();

/** A shop server with a member's purchase of a role item, bought through the API. */
async function shopWithPurchase() {
  const guild = await shopGuild(db());
  const vip = await item(guild, { name: 'VIP pass', type: 'role', roleId: guild.roles.vip, price: 300, stock: 3 });
  await upsertPlatformChannels(db(), guild.id, [
    { channelId: snowflake(), name: 'general', type: 'text', position: 1 },
    { channelId: snowflake(), name: 'shop-news', type: 'announcement', position: 2 },
  ]);
  const buyer = await member(guild, { balance: 500 });
  const bought = await buy(guild, guild.key, buyer, { itemId: vip.id });
  return { guild, vip, purchaseId: bought.body.purchase.id as number };
}

describe('the shop in a real browser', { timeout: 120_000 }, () => {
  it('creates a store and an item (a form error kept), restocks, takes it off sale and refunds a purchase after their confirmations', async () => {
    const { guild, vip, purchaseId } = await shopWithPurchase();
    const { page } = await browser.open();
    await signInLocally(page, app.baseUrl, guild.managerId);
    const base = `${app.baseUrl}/console/servers/${guild.id}/shop`;
    await page.goto(base);
    await expectAccessible(page);
    await screenshot(page, 'shop-stores');

    await page.getByRole('link', { name: 'New store' }).click();
    await page.getByLabel('Name').fill('Colours');
    await page.getByLabel('Colour (optional)').fill('red');
    await page.getByRole('button', { name: 'Create the store' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-error'))).toBe('INVALID_INPUT');
    expect(await page.getByLabel('Name').inputValue()).toBe('Colours');
    await expectAccessible(page);
    await screenshot(page, 'shop-store-error');
    await page.getByLabel('Colour (optional)').fill('#FF0000');
    await page.getByLabel('#general').check();
    await expectAccessible(page);
    await screenshot(page, 'shop-store-channels');
    await page.getByRole('button', { name: 'Create the store' }).click();
    await page.waitForURL(base);
    await page.getByRole('link', { name: 'Items of Colours' }).click();
    await expect.poll(() => page.locator('[data-empty="items"]').count()).toBe(1);
    expect(await page.locator('[data-store-channels]').innerText()).toBe('Channels: #general');
    await expectAccessible(page);
    await screenshot(page, 'shop-items-empty');

    await page.getByRole('link', { name: 'New item' }).click();
    await page.getByLabel('Name').fill('Red name');
    await page.getByLabel('Price', { exact: true }).fill('50');
    await page.getByLabel('Kind').selectOption('color');
    await page.getByLabel('Role given').selectOption({ label: '@Red' });
    await expectAccessible(page);
    await screenshot(page, 'shop-item-new');
    await page.getByRole('button', { name: 'Create the item' }).click();
    await expect.poll(() => page.locator('tr[data-item]').count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'shop-items');

    await page.goto(`${base}/items/${vip.id}`);
    await page.getByLabel('Units for sale').fill('10');
    await page.getByRole('button', { name: 'Save the stock' }).click();
    await page.waitForURL(`${base}/items/${vip.id}`);
    expect(await page.getByLabel('Units for sale').inputValue()).toBe('10');
    await expectAccessible(page);
    await screenshot(page, 'shop-item');
    await page.getByRole('link', { name: 'Take it off sale…' }).click();
    await expectAccessible(page);
    await screenshot(page, 'shop-item-disable');
    await page.getByRole('button', { name: 'Take it off sale' }).click();
    await expect.poll(() => page.locator('[data-item-state="off"]').count()).toBe(1);

    await page.goto(`${base}/purchases`);
    await expectAccessible(page);
    await screenshot(page, 'shop-purchases');
    await page.getByRole('link', { name: `#${purchaseId}` }).click();
    await expectAccessible(page);
    await screenshot(page, 'shop-purchase');
    await page.getByRole('link', { name: 'Refund this purchase…' }).click();
    await page.getByLabel('Reason (optional)').fill('Bought by mistake');
    await expectAccessible(page);
    await screenshot(page, 'shop-refund');
    await page.getByRole('button', { name: 'Refund' }).click();
    await page.waitForURL(`${base}/purchases/${purchaseId}`);
    await expect.poll(() => page.locator('dd[data-status="refunded"]').count()).toBe(1);
    await expectAccessible(page);
  });

  it('is readable on a phone: no horizontal scrolling of the page, and still accessible', async () => {
    const { guild, vip, purchaseId } = await shopWithPurchase();
    const { page } = await browser.open();
    await page.setViewportSize({ width: 390, height: 844 });
    await signInLocally(page, app.baseUrl, guild.managerId);
    const paths = ['shop', 'shop/stores/new', 'shop/stores/main/items', 'shop/items/new', `shop/items/${vip.id}`, `shop/items/${vip.id}/disable`, 'shop/purchases', `shop/purchases/${purchaseId}`, `shop/purchases/${purchaseId}/refund`];
    for (const path of paths) {
      await page.goto(`${app.baseUrl}/console/servers/${guild.id}/${path}`);
      await expectFitsWidth(page);
      await expectAccessible(page);
      await screenshot(page, `phone-${path.replaceAll('/', '-').replace(/\d+/g, 'n')}`);
    }
  });
});
