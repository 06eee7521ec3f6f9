import { listColorRoleIds } from '../db/shop/items.js';
import { findPurchase, markExpired, roleHeldByOtherPurchase } from '../db/shop/purchases.js';
import { colorRolesToRemove } from '../src/shop/purchaseRules.js';
import type { ActivityDeps } from './deps.js';

export type ShopActivities = ReturnType<typeof createShopActivities>;

export function createShopActivities({ db, platform, clock }: ActivityDeps) {
  return {
    /**
     * Gives an owned purchase's role; a colour role first takes the member's other shop colour roles off. A purchase
     * refunded before this ran, or a member no longer in the server, gets nothing. Role changes are set operations,
     * so a retry gives the role once. `expiresAt` is the timed role's end (null: permanent or nothing to take back).
     */
    async givePurchaseRole(guildId: string, purchaseId: number): Promise<{ given: boolean; expiresAt: string | null }> {
      const purchase = await findPurchase(db, guildId, purchaseId);
      if (!purchase || purchase.status !== 'owned' || purchase.roleId === null) return { given: false, expiresAt: null };
      const expiresAt = purchase.expiresAt?.toISOString() ?? null;
      const member = await platform.getMember(guildId, purchase.userId);
      if (!member) return { given: false, expiresAt };
      const reason = `Shop purchase #${purchaseId}: ${purchase.item.name}`;
      if (purchase.item.type === 'color') {
        for (const other of colorRolesToRemove(member.roleIds, await listColorRoleIds(db, guildId), purchase.roleId)) {
          await platform.changeRole(guildId, purchase.userId, other, 'remove', `${reason} (colour roles are exclusive)`);
        }
      }
      await platform.changeRole(guildId, purchase.userId, purchase.roleId, 'add', reason);
      return { given: true, expiresAt };
    },

    /** A timed role ran out: the purchase becomes `used`; false when it was refunded meanwhile (nothing to take back). */
    async expirePurchase(guildId: string, purchaseId: number): Promise<boolean> {
      return markExpired(db, guildId, purchaseId, clock.now());
    },

    /** Takes a purchase's role back unless another owned, unexpired purchase of the member gives it; true when it came off. */
    async takeBackPurchaseRole(guildId: string, purchaseId: number): Promise<boolean> {
      const purchase = await findPurchase(db, guildId, purchaseId);
      if (!purchase || purchase.roleId === null) return false;
      const held = await roleHeldByOtherPurchase(db, { guildId, userId: purchase.userId, roleId: purchase.roleId, exceptId: purchaseId, at: clock.now() });
      if (held || !(await platform.getMember(guildId, purchase.userId))) return false;
      const why = purchase.status === 'refunded' ? 'refunded' : 'ran out';
      return platform.changeRole(guildId, purchase.userId, purchase.roleId, 'remove', `Shop purchase #${purchaseId} ${why}`);
    },
  };
}
