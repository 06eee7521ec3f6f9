import { WorkflowNotFoundError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { findPlatformMember } from '../../db/platform/local.js';
import { findItem } from '../../db/shop/items.js';
import { findPurchase } from '../../db/shop/purchases.js';
import { purchaseEffectsWorkflowId, purchaseRefundWorkflowId } from '../../src/shop/ids.js';
import { shopRequests } from '../api/shop/shopBed.js';
import { eventually } from '../harness/eventually.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { consoleClient, errorCodeOf, fieldErrorOf } from './consoleClient.js';
import { idsOn, olderOf, shopConsole, shopGuild } from './shopBed.js';

// Refunds run their workflow on a real worker over the local platform: the dashboard's refund must take the role
// back exactly as the API's does (test/workflows/shopPurchaseEffects.test.ts). The catalog: shopCatalog.test.ts.
const { db, app, gateway } = useWorkflowTestBed({ app: { env: { CONSOLE_SIGN_IN_LIMIT: '1000' } } });
const { item, member, buy } = shopRequests(db, app);
const { signedIn, state, shopAudit } = shopConsole(db, app);

const rolesOf = async (guildId: string, userId: string) => (await findPlatformMember(db(), guildId, userId))!.role_ids;
/** The run's result; the start follows the response, so the run may not exist yet when asked. */
async function workflowResult(workflowId: string): Promise<unknown> {
  const handle = () => gateway.client.workflow.getHandle(workflowId);
  await eventually(() => handle().describe().then(() => true, (err: unknown) => (err instanceof WorkflowNotFoundError ? false : Promise.reject(err))), (found) => found);
  return handle().result();
}

describe('purchases and refunds', () => {
  it('lists purchases newest first with the member by name, filters by status and pages; shows one purchase', async () => {
    const { guild, client, path } = await signedIn();
    const sticker = await item(guild, { price: 1 });
    const olga = await member(guild, { balance: 100 });
    await db().updateTable('platform_members').set({ username: 'olga' }).where('guild_id', '=', guild.id).where('user_id', '=', olga).execute();
    expect((await client.get(`${path}/purchases`)).text).toContain('data-empty="purchases"');
    const ids: number[] = [];
    for (let i = 0; i < 26; i++) ids.push((await buy(guild, guild.key, olga, { itemId: sticker.id })).body.purchase.id);
    await db().updateTable('shop_purchases').set({ status: 'used' }).where('id', '=', ids[0]!).execute();
    const first = await client.get(`${path}/purchases`);
    expect(idsOn(first.text, 'purchase').map(Number)).toEqual(ids.slice(1).reverse());
    expect(first.text).toContain('<td>olga</td>');
    expect(idsOn((await client.get(olderOf(first.text)!)).text, 'purchase').map(Number)).toEqual([ids[0]]);
    expect(idsOn((await client.get(`${path}/purchases?status=used`)).text, 'purchase').map(Number)).toEqual([ids[0]]);
    for (const q of ['?status=lost', '?before=x']) expect(errorCodeOf(await client.get(`${path}/purchases${q}`))).toBe('INVALID_INPUT');
    const one = await client.get(`${path}/purchases/${ids[0]}`);
    expect(one.text).toContain('<dd data-status="used">used</dd>');
    expect(one.text).toContain('Refund this purchase…');
  });

  it("refunds after a confirmation through the API's use case: balance back, stock back, the console user audited, the worker takes the role off", async () => {
    const { guild, client, path } = await signedIn();
    const vip = await item(guild, { name: 'VIP', type: 'role', roleId: guild.roles.vip, price: 300, stock: 1 });
    const buyer = await member(guild, { balance: 500 });
    const bought = await buy(guild, guild.key, buyer, { itemId: vip.id });
    const purchaseId: number = bought.body.purchase.id;
    expect(await workflowResult(purchaseEffectsWorkflowId(guild.id, purchaseId))).toEqual({ outcome: 'granted' });
    expect(await rolesOf(guild.id, buyer)).toEqual([guild.roles.vip]);

    const confirm = await client.get(`${path}/purchases/${purchaseId}/refund`);
    expect(confirm.text).toContain(`Refund purchase #${purchaseId}?`);
    expect(confirm.text).toContain('the bot takes the role back');
    const res = await client.post(`${path}/purchases/${purchaseId}/refund`, { 'refund-reason': 'Bought by mistake' });
    expect([res.status, res.headers.location]).toEqual([303, `${path}/purchases/${purchaseId}`]);

    expect(await findPurchase(db(), guild.id, purchaseId)).toMatchObject({ status: 'refunded', refundedBy: guild.managerId });
    const balance = await db().selectFrom('bank_accounts').select('balance').where('guild_id', '=', guild.id).where('user_id', '=', buyer).executeTakeFirstOrThrow();
    expect(balance.balance).toBe(500);
    expect((await findItem(db(), guild.id, vip.id))!.stock).toBe(1);
    const refunds = await db().selectFrom('events').select('data').where('guild_id', '=', guild.id).where('type', '=', 'shop.refund').execute();
    expect(refunds).toEqual([{ data: expect.objectContaining({ purchaseId, userId: buyer, price: 300, refundedBy: guild.managerId }) }]);
    expect((await shopAudit(guild.id)).at(-1)).toEqual({
      actor_type: 'console_user',
      actor_id: guild.managerId,
      action: 'shop.refund',
      target_id: String(purchaseId),
      data: { userId: buyer, previousStatus: 'owned', price: 300, transactionId: expect.any(Number), reason: 'Bought by mistake' },
    });
    expect(await workflowResult(purchaseRefundWorkflowId(guild.id, purchaseId))).toEqual({ roleRemoved: true });
    expect(await rolesOf(guild.id, buyer)).toEqual([]);
    const page = await client.get(`${path}/purchases/${purchaseId}`);
    expect(page.text).toContain('<dd data-status="refunded">refunded</dd>');
    expect(page.text).not.toContain('Refund this purchase…');
  });

  it('keeps a too long reason on the form (400, the field named) and a second refund 409 PURCHASE_ALREADY_REFUNDED, changing nothing', async () => {
    const { guild, client, path } = await signedIn();
    const sticker = await item(guild, { price: 20 });
    const buyer = await member(guild, { balance: 100 });
    const purchaseId: number = (await buy(guild, guild.key, buyer, { itemId: sticker.id })).body.purchase.id;
    await client.get(`${path}/purchases/${purchaseId}/refund`);
    let before = await state(guild.id);
    const long = await client.post(`${path}/purchases/${purchaseId}/refund`, { 'refund-reason': 'x'.repeat(501) });
    expect([long.status, errorCodeOf(long), fieldErrorOf(long.text, 'refund-reason')]).toEqual([400, 'INVALID_INPUT', 'Give a reason of at most 500 characters, without control characters.']);
    expect(await state(guild.id)).toEqual(before);

    // Two tabs on the confirmation: the second refund is refused on its form.
    const tab = consoleClient(app.baseUrl);
    await tab.signIn(guild.managerId);
    await tab.get(`${path}/purchases/${purchaseId}/refund`);
    expect((await client.post(`${path}/purchases/${purchaseId}/refund`, {})).status).toBe(303);
    before = await state(guild.id);
    const again = await tab.post(`${path}/purchases/${purchaseId}/refund`, {});
    expect([again.status, errorCodeOf(again)]).toEqual([409, 'PURCHASE_ALREADY_REFUNDED']);
    expect(await state(guild.id)).toEqual(before);
  });

  it('says on the form that a credit past the maximum balance is refused, 422 BALANCE_LIMIT, changing nothing', async () => {
    const { guild, client, path } = await signedIn();
    const sticker = await item(guild, { price: 50 });
    const buyer = await member(guild, { balance: 100 });
    const purchaseId: number = (await buy(guild, guild.key, buyer, { itemId: sticker.id })).body.purchase.id;
    await db().updateTable('bank_settings').set({ max_balance: 60 }).where('guild_id', '=', guild.id).execute();
    await client.get(`${path}/purchases/${purchaseId}/refund`);
    const before = await state(guild.id);
    const res = await client.post(`${path}/purchases/${purchaseId}/refund`, { 'refund-reason': 'sorry' });
    expect([res.status, errorCodeOf(res)]).toEqual([422, 'BALANCE_LIMIT']);
    expect(res.text).toContain('<textarea id="refund-reason"');
    expect(res.text).toContain('sorry</textarea>');
    expect(await state(guild.id)).toEqual(before);
  });

  it("answers 404 PURCHASE_NOT_FOUND for another server's purchase", async () => {
    const { client, path } = await signedIn();
    const other = await shopGuild(db());
    const theirs = (await buy(other, other.key, await member(other, { balance: 10 }), { itemId: (await item(other, { price: 1 })).id })).body.purchase.id;
    for (const p of [`${path}/purchases/${theirs}`, `${path}/purchases/${theirs}/refund`]) expect([p, errorCodeOf(await client.get(p))]).toEqual([p, 'PURCHASE_NOT_FOUND']);
  });
});

describe('a manager who lost Manage Server since the page was drawn', () => {
  it('is refused 403 NOT_A_SERVER_MANAGER on a refund and an item change (permission read fresh on writes), changing nothing', async () => {
    const { guild, client, path } = await signedIn();
    const sticker = await item(guild, { price: 20 });
    const purchaseId: number = (await buy(guild, guild.key, await member(guild, { balance: 100 }), { itemId: sticker.id })).body.purchase.id;
    await client.get(`${path}/purchases/${purchaseId}/refund`);
    await client.get(`${path}/items/${sticker.id}`);
    await db().updateTable('platform_members').set({ role_ids: [] }).where('guild_id', '=', guild.id).where('user_id', '=', guild.managerId).execute();
    const before = await state(guild.id);
    for (const [p, fields] of [
      [`${path}/purchases/${purchaseId}/refund`, {}],
      [`${path}/items/${sticker.id}/stock`, { 'item-stock': '1' }],
    ] as const) {
      const res = await client.post(p, fields);
      expect([p, res.status, errorCodeOf(res)]).toEqual([p, 403, 'NOT_A_SERVER_MANAGER']);
    }
    expect(await state(guild.id)).toEqual(before);
  });
});
