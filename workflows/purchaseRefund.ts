import { getExternalWorkflowHandle, proxyActivities } from '@temporalio/workflow';
import type { ShopActivities } from '../activities/shop.js';
import { purchaseEffectsWorkflowId, purchaseRefundedSignal, type PurchaseRefundResult, type PurchaseWorkflowInput } from '../src/shop/ids.js';
import { PLATFORM_EFFECT } from './activityProfiles.js';

const effects = proxyActivities<ShopActivities>(PLATFORM_EFFECT);

/**
 * The platform side of a refund: the purchase's effects run is told (a timed role's expiry is cancelled), then
 * the role comes off unless another active purchase of the member gives it.
 */
export async function purchaseRefund({ guildId, purchaseId }: PurchaseWorkflowInput): Promise<PurchaseRefundResult> {
  try {
    await getExternalWorkflowHandle(purchaseEffectsWorkflowId(guildId, purchaseId)).signal(purchaseRefundedSignal);
  } catch {
    // That run already closed (a permanent role given) or never ran: there is no expiry to cancel.
  }
  return { roleRemoved: await effects.takeBackPurchaseRole(guildId, purchaseId) };
}
