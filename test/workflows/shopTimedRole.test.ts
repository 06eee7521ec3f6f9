import { describe, expect, it } from 'vitest';
import { findPlatformMember } from '../../db/platform/local.js';
import { findPurchase } from '../../db/shop/purchases.js';
import { grantItem } from '../../src/shop/grantItem.js';
import { purchaseEffectsWorkflowId, purchaseRefundWorkflowId } from '../../src/shop/ids.js';
import { refundPurchase } from '../../src/shop/refundPurchase.js';
import { ITEM_DEFAULTS } from '../api/shop/shopBed.js';
import { insertItem } from '../../db/shop/items.js';
import { addTestMember, createTestGuild, snowflake, type TestGuild } from '../harness/fixtures.js';
import { useTimeSkippingTestBed } from '../harness/timeSkippingTestBed.js';

// The time-skipping server fires a timed role's day-long timer at once.
const bed = useTimeSkippingTestBed({ taskQueue: 'shop-timed-role-test' });
const { db, taskQueue } = bed;
const DAY = 86_400;

async function timedPurchase() {
  const guild = await createTestGuild(db());
  const role = snowflake();
  const item = await insertItem(db(), guild.id, { ...ITEM_DEFAULTS, type: 'role', roleId: role, durationSec: DAY, price: 0 }, new Date());
  const buyer = await addTestMember(db(), guild);
  // On the test server's clock, which runs ahead of the wall clock once an earlier test skipped time.
  const at = new Date(await bed.env.currentTimeMs());
  const { purchase } = await db()
    .transaction()
    .execute((trx) => grantItem(trx, { guildId: guild.id, userId: buyer, itemId: item.id, reason: null, actor: { type: 'system' }, at }));
  const handle = await bed.client.workflow.start('purchaseEffects', {
    taskQueue,
    workflowId: purchaseEffectsWorkflowId(guild.id, purchase.id),
    args: [{ guildId: guild.id, purchaseId: purchase.id }],
  });
  return { guild, role, buyer, purchase, handle };
}

const rolesOf = async (guild: TestGuild, userId: string) => (await findPlatformMember(db(), guild.id, userId))!.role_ids;

describe('timed shop roles', () => {
  it('a timed role is taken back when it runs out: one timer of durationSec, the purchase becomes used', async () => {
    const { guild, role, buyer, purchase, handle } = await timedPurchase();
    expect(await handle.result()).toEqual({ outcome: 'expired' });
    expect(await rolesOf(guild, buyer)).not.toContain(role);
    expect(await findPurchase(db(), guild.id, purchase.id)).toMatchObject({ status: 'used' });
    const events = (await handle.fetchHistory()).events!;
    const timers = events.filter((e) => e.timerStartedEventAttributes);
    expect(timers).toHaveLength(1);
    const seconds = Number(timers[0]!.timerStartedEventAttributes!.startToFireTimeout!.seconds);
    expect(seconds).toBeGreaterThan(DAY - 30);
    expect(seconds).toBeLessThanOrEqual(DAY);
  });

  it('a refund cancels the expiry: the run ends at once, the role comes off once and the purchase stays refunded', async () => {
    const { guild, role, buyer, purchase, handle } = await timedPurchase();
    // Wait for the role without letting time skip past the timer (time skips only while a result is awaited).
    await bed.client.withDeadline(Date.now() + 10_000, async () => {
      while (!(await rolesOf(guild, buyer)).includes(role)) await new Promise((r) => setTimeout(r, 50));
    });
    await db()
      .transaction()
      .execute((trx) => refundPurchase(trx, { guildId: guild.id, purchaseId: purchase.id, reason: null, actor: { type: 'system' }, refundedBy: null, at: new Date() }));
    const refund = await bed.client.workflow.start('purchaseRefund', {
      taskQueue,
      workflowId: purchaseRefundWorkflowId(guild.id, purchase.id),
      args: [{ guildId: guild.id, purchaseId: purchase.id }],
    });
    expect(await refund.result()).toEqual({ roleRemoved: true });
    expect(await handle.result()).toEqual({ outcome: 'refunded' });
    expect(await rolesOf(guild, buyer)).not.toContain(role);
    expect(await findPurchase(db(), guild.id, purchase.id)).toMatchObject({ status: 'refunded' });
    const history = (await handle.fetchHistory()).events!;
    expect(history.some((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'purchaseRefunded')).toBe(true);
    expect(history.some((e) => e.timerFiredEventAttributes)).toBe(false);
  });
});
