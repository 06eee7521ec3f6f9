import { WorkflowNotFoundError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { findPlatformMember } from '../../db/platform/local.js';
import { listRoleChanges } from '../../db/platform/roles.js';
import { findPurchase } from '../../db/shop/purchases.js';
import { systemClock } from '../../src/core/clock.js';
import { relayUnstarted } from '../../src/core/temporal/operation.js';
import { grantItem } from '../../src/shop/grantItem.js';
import { purchaseEffectsWorkflowId, purchaseRefundWorkflowId } from '../../src/shop/ids.js';
import { purchaseEffectsOperation, purchaseRefundOperation } from '../../src/shop/purchaseOperations.js';
import { refundPurchase } from '../../src/shop/refundPurchase.js';
import { shopRequests } from '../api/shop/shopBed.js';
import { eventually } from '../harness/eventually.js';
import { snowflake, type TestGuild } from '../harness/fixtures.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';

const { db, app, gateway } = useWorkflowTestBed();
const { setup, item, member, buy, grant, refund } = shopRequests(db, app);

const rolesOf = async (guild: TestGuild, userId: string) => (await findPlatformMember(db(), guild.id, userId))!.role_ids.slice().sort();
/** The run's result; the API starts it just after its response, so the run may not exist yet when asked. */
async function result(workflowId: string): Promise<unknown> {
  await eventually(
    () => gateway.client.workflow.getHandle(workflowId).describe().then(() => true, (err: unknown) => (err instanceof WorkflowNotFoundError ? false : Promise.reject(err))),
    (found) => found,
  );
  return gateway.client.workflow.getHandle(workflowId).result();
}

describe('purchase effects (workflows shop-purchase and shop-refund)', () => {
  it('a bought role is given by the bot; a refund takes it back', async () => {
    const { guild, key } = await setup();
    const role = snowflake();
    const vip = await item(guild, { type: 'role', roleId: role, price: 10 });
    const buyer = await member(guild, { balance: 100 });
    const bought = await buy(guild, key, buyer, { itemId: vip.id });
    expect(bought.status).toBe(201);
    const purchaseId = bought.body.purchase.id;
    expect(await result(purchaseEffectsWorkflowId(guild.id, purchaseId))).toEqual({ outcome: 'granted' });
    expect(await rolesOf(guild, buyer)).toEqual([role]);

    expect((await refund(guild, key, purchaseId)).status).toBe(200);
    expect(await result(purchaseRefundWorkflowId(guild.id, purchaseId))).toEqual({ roleRemoved: true });
    expect(await rolesOf(guild, buyer)).toEqual([]);
    expect((await listRoleChanges(db(), guild.id, buyer)).map((c) => c.action)).toEqual(['add', 'remove']);
  });

  it('colour roles are exclusive: a new colour takes the other shop colours off, other roles stay', async () => {
    const { guild, key } = await setup();
    const [red, blue, other] = [snowflake(), snowflake(), snowflake()];
    const redItem = await item(guild, { type: 'color', roleId: red, price: 0 });
    const blueItem = await item(guild, { type: 'color', roleId: blue, price: 0 });
    const buyer = await member(guild, { roleIds: [other] });
    const first = await buy(guild, key, buyer, { itemId: redItem.id });
    await result(purchaseEffectsWorkflowId(guild.id, first.body.purchase.id));
    expect(await rolesOf(guild, buyer)).toEqual([other, red].sort());
    const second = await buy(guild, key, buyer, { itemId: blueItem.id });
    expect(await result(purchaseEffectsWorkflowId(guild.id, second.body.purchase.id))).toEqual({ outcome: 'granted' });
    expect(await rolesOf(guild, buyer)).toEqual([other, blue].sort());
  });

  it('a refund keeps the role while another owned purchase gives it', async () => {
    const { guild, key } = await setup();
    const role = snowflake();
    const vip = await item(guild, { type: 'role', roleId: role, price: 0 });
    const buyer = await member(guild);
    const a = (await grant(guild, key, buyer, { itemId: vip.id })).body.id;
    const b = (await grant(guild, key, buyer, { itemId: vip.id })).body.id;
    await result(purchaseEffectsWorkflowId(guild.id, a));
    await result(purchaseEffectsWorkflowId(guild.id, b));
    await refund(guild, key, a);
    expect(await result(purchaseRefundWorkflowId(guild.id, a))).toEqual({ roleRemoved: false });
    expect(await rolesOf(guild, buyer)).toEqual([role]);
    await refund(guild, key, b);
    expect(await result(purchaseRefundWorkflowId(guild.id, b))).toEqual({ roleRemoved: true });
    expect(await rolesOf(guild, buyer)).toEqual([]);
  });

  it('an item without a role starts no workflow; its purchase is recorded all the same', async () => {
    const { guild, key } = await setup();
    const sticker = await item(guild, { price: 0 });
    const buyer = await member(guild);
    const { body } = await buy(guild, key, buyer, { itemId: sticker.id });
    await expect(gateway.client.workflow.getHandle(purchaseEffectsWorkflowId(guild.id, body.purchase.id)).describe()).rejects.toThrow();
    expect(await findPurchase(db(), guild.id, body.purchase.id)).toMatchObject({ status: 'owned', roleId: null });
  });

  it('the start relay starts the effects and the refund of purchases committed without a start', async () => {
    const { guild } = await setup();
    const role = snowflake();
    const vip = await item(guild, { type: 'role', roleId: role, price: 0 });
    const buyer = await member(guild);
    const at = new Date(Date.now() - 10_000);
    const actor = { type: 'system' as const };
    const { purchase } = await db().transaction().execute((trx) => grantItem(trx, { guildId: guild.id, userId: buyer, itemId: vip.id, reason: null, actor, at }));
    const deps = { db: db(), temporal: gateway, clock: systemClock };
    // Other files' rows may be waiting too: passes repeat until this purchase's run exists.
    await eventually(
      async () => {
        await relayUnstarted(deps, purchaseEffectsOperation);
        return (await findPurchase(db(), guild.id, purchase.id))?.roleId !== null && (await rolesOf(guild, buyer)).includes(role);
      },
      (done) => done,
    );
    expect(await result(purchaseEffectsWorkflowId(guild.id, purchase.id))).toEqual({ outcome: 'granted' });

    await db().transaction().execute((trx) => refundPurchase(trx, { guildId: guild.id, purchaseId: purchase.id, reason: null, actor, refundedBy: null, at }));
    await eventually(
      async () => {
        await relayUnstarted(deps, purchaseRefundOperation);
        return rolesOf(guild, buyer);
      },
      (roles) => roles.length === 0,
    );
    expect(await result(purchaseRefundWorkflowId(guild.id, purchase.id))).toEqual({ roleRemoved: true });
  });

  it('a purchase refunded before its effects ran gives nothing', async () => {
    const { guild } = await setup();
    const vip = await item(guild, { type: 'role', roleId: snowflake(), price: 0 });
    const buyer = await member(guild);
    const actor = { type: 'system' as const };
    const at = new Date();
    const { purchase } = await db().transaction().execute((trx) => grantItem(trx, { guildId: guild.id, userId: buyer, itemId: vip.id, reason: null, actor, at }));
    await db().transaction().execute((trx) => refundPurchase(trx, { guildId: guild.id, purchaseId: purchase.id, reason: null, actor, refundedBy: null, at }));
    const handle = await gateway.client.workflow.start('purchaseEffects', {
      taskQueue: gateway.taskQueue,
      workflowId: purchaseEffectsWorkflowId(guild.id, purchase.id),
      args: [{ guildId: guild.id, purchaseId: purchase.id }],
    });
    expect(await handle.result()).toEqual({ outcome: 'none' });
    expect(await rolesOf(guild, buyer)).toEqual([]);
  });
});
