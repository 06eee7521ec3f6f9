import type { ShopItemRecord } from '../../db/shop/items.js';
import { purchaseLimitReached, requirementNotMet, shopItemDisabled } from './shopErrors.js';

export interface Buyer {
  roleIds: readonly string[];
  level: number;
  /** Units of this item the member has that were not refunded. */
  unitsHeld: number;
}

/**
 * Whether a member may buy the item, in the order a buyer fixes things: the item on sale, then the
 * requirements (every required role, the level), then the per-member limit. Stock and funds follow in the
 * transaction. Grants skip all of this.
 */
export function checkBuyable(item: ShopItemRecord, storeEnabled: boolean, buyer: Buyer): void {
  if (!item.enabled || !storeEnabled) throw shopItemDisabled();
  const held = new Set(buyer.roleIds);
  const missing = item.requiredRoleIds.filter((r) => !held.has(r));
  if (missing.length > 0) throw requirementNotMet('roles', `missing role(s) ${missing.join(', ')}`);
  if (buyer.level < item.minLevel) throw requirementNotMet('level', `level ${item.minLevel} needed, the member is level ${buyer.level}`);
  if (item.perUserLimit !== null && buyer.unitsHeld >= item.perUserLimit) throw purchaseLimitReached(item.perUserLimit);
}

/** When a timed role is taken back: `durationSec` after the purchase; null for permanent roles and other items. */
export function purchaseExpiry(item: Pick<ShopItemRecord, 'roleId' | 'durationSec'>, at: Date): Date | null {
  if (item.roleId === null || item.durationSec <= 0) return null;
  return new Date(at.getTime() + item.durationSec * 1000);
}

/** The colour roles to take off a member who gets `roleId`: colour roles are exclusive. */
export function colorRolesToRemove(memberRoleIds: readonly string[], colorRoleIds: readonly string[], roleId: string): string[] {
  const colors = new Set(colorRoleIds);
  return memberRoleIds.filter((r) => r !== roleId && colors.has(r));
}
