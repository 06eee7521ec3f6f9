import { afterAll, describe, expect, it } from 'vitest';
import { findPlatformMember } from '../../db/platform/local.js';
import { insertItem } from '../../db/shop/items.js';
import type { Platform } from '../../src/core/platform.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { grantItem } from '../../src/shop/grantItem.js';
import { purchaseEffectsWorkflowId, purchaseRefundWorkflowId } from '../../src/shop/ids.js';
import { refundPurchase } from '../../src/shop/refundPurchase.js';
import { ITEM_DEFAULTS } from '../api/shop/shopBed.js';
import { eventually } from '../harness/eventually.js';
import { addTestMember, createTestGuild, snowflake } from '../harness/fixtures.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';

// A platform whose role grants wait at a gate the test opens: the refund lands while the role is being given.
let gate: { opened: Promise<void>; open(): void; reached: Promise<void>; reach(): void } | undefined;
const newGate = () => {
  let open!: () => void;
  let reach!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  const reached = new Promise<void>((r) => (reach = r));
  return { opened, open, reached, reach };
};
let local: Platform | undefined;
const platform = new Proxy({} as Platform, {
  // Not a promise: `then` stays undefined, so awaiting the platform object does not call through.
  get: (_target, name: keyof Platform | 'then') =>
    name === 'then' ? undefined : async (...args: unknown[]) => {
      local ??= createLocalPlatform(db());
      if (name === 'changeRole' && args[3] === 'add' && gate) {
        gate.reach();
        await gate.opened;
      }
      return (local[name] as (...a: unknown[]) => Promise<unknown>)(...args);
    },
});

const { db, gateway } = useWorkflowTestBed({ worker: { platform } });
// A failed assertion must not leave an activity waiting at the gate (the worker would not shut down).
afterAll(() => gate?.open());

describe('a refund while the role is being given', () => {
  it('the effects run takes the role back again once the grant lands, so the refunded member keeps nothing', async () => {
    const guild = await createTestGuild(db());
    const role = snowflake();
    const item = await insertItem(db(), guild.id, { ...ITEM_DEFAULTS, type: 'role', roleId: role, price: 0 }, new Date());
    const buyer = await addTestMember(db(), guild);
    const actor = { type: 'system' as const };
    const { purchase } = await db().transaction().execute((trx) => grantItem(trx, { guildId: guild.id, userId: buyer, itemId: item.id, reason: null, actor, at: new Date() }));
    gate = newGate();
    const start = (type: string, workflowId: string) =>
      gateway.client.workflow.start(type, { taskQueue: gateway.taskQueue, workflowId, args: [{ guildId: guild.id, purchaseId: purchase.id }] });
    const effects = await start('purchaseEffects', purchaseEffectsWorkflowId(guild.id, purchase.id));
    await gate.reached;

    await db().transaction().execute((trx) => refundPurchase(trx, { guildId: guild.id, purchaseId: purchase.id, reason: null, actor, refundedBy: null, at: new Date() }));
    const refund = await start('purchaseRefund', purchaseRefundWorkflowId(guild.id, purchase.id));
    // The refund's take-back runs first (nothing to take yet), and the effects run has the signal.
    expect(await refund.result()).toEqual({ roleRemoved: false });
    await eventually(
      async () => (await effects.fetchHistory()).events!.some((e) => e.workflowExecutionSignaledEventAttributes),
      (signalled) => signalled,
    );
    gate.open();
    expect(await effects.result()).toEqual({ outcome: 'refunded' });
    expect((await findPlatformMember(db(), guild.id, buyer))!.role_ids).toEqual([]);
  });
});
