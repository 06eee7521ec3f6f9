import { condition, proxyActivities, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import type { ShopActivities } from '../activities/shop.js';
import { purchaseRefundedSignal, type PurchaseEffectsResult, type PurchaseWorkflowInput } from '../src/shop/ids.js';
import { DATABASE_STEP, PLATFORM_EFFECT } from './activityProfiles.js';

const steps = proxyLocalActivities<ShopActivities>(DATABASE_STEP);
// The purchase stands (paid, recorded): giving its role waits out a platform outage rather than give up.
const effects = proxyActivities<ShopActivities>(PLATFORM_EFFECT);

/**
 * The platform side of one purchase: its role given (colour roles exclusive). A timed role keeps the run open on
 * a durable timer until it runs out, then the purchase becomes `used` and the role comes off, unless a refund
 * signalled first (or committed first: expirePurchase changes only an owned purchase).
 */
export async function purchaseEffects({ guildId, purchaseId }: PurchaseWorkflowInput): Promise<PurchaseEffectsResult> {
  let refunded = false;
  setHandler(purchaseRefundedSignal, () => {
    refunded = true;
  });
  const { given, expiresAt } = await effects.givePurchaseRole(guildId, purchaseId);
  // Refunded while the role was being given: the refund's own take-back may have run first, so take it back again.
  if (refunded && given) {
    await effects.takeBackPurchaseRole(guildId, purchaseId);
    return { outcome: 'refunded' };
  }
  if (expiresAt === null) return { outcome: given ? 'granted' : 'none' };
  // Workflow time: the same on replay. At least 1 ms, as a zero timeout would mean no timer at all.
  const remainingMs = Math.max(1, Date.parse(expiresAt) - Date.now());
  if (await condition(() => refunded, remainingMs)) return { outcome: 'refunded' };
  if (!(await steps.expirePurchase(guildId, purchaseId))) return { outcome: 'refunded' };
  await effects.takeBackPurchaseRole(guildId, purchaseId);
  return { outcome: 'expired' };
}
