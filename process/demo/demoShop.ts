import type { Kysely } from 'kysely';
import { upsertPlatformRoles } from '../../db/platform/local.js';
import type { Database } from '../../db/schema.js';
import type { ItemFieldsInput } from '../../src/shop/catalogInput.js';
import { createCategory, createItem, createStore } from '../../src/shop/manageCatalog.js';

const DAY_SEC = 86_400;

export interface DemoShopIds {
  vipRole: string;
  /** The position of the highest role the shop's roles go above (the VIP role's). */
  abovePosition: number;
  /** Role ids free for the shop's own roles: three colours and a timed supporter role. */
  role: (n: number) => string;
}

const ITEM: Omit<ItemFieldsInput, 'name' | 'price' | 'type'> = {
  storeId: null, description: null, emoji: null, category: null, roleId: null, durationSec: 0, consumable: false, fulfillment: false,
  stock: null, perUserLimit: null, requiredRoleIds: [], minLevel: 0, enabled: true, hidden: false, sortOrder: 0,
};

/**
 * The demo guild's shop: the Main store and a Cosmetics store, categories, a permanent role (VIP), a timed role
 * (Supporter, 7 days), three exclusive colour roles, items with limited stock, a consumable, one staff deliver, a
 * hidden and a disabled one. Seeded once: nothing is added when the guild already has shop items.
 */
export async function seedDemoShop(db: Kysely<Database>, guildId: string, ids: DemoShopIds, now: Date): Promise<void> {
  const seeded = await db.selectFrom('shop_items').select('id').where('guild_id', '=', guildId).limit(1).executeTakeFirst();
  if (seeded) return;
  const [crimson, ocean, mint, supporter] = [ids.role(120), ids.role(121), ids.role(122), ids.role(123)];
  const c = { guildId, actor: { type: 'system' } as const, at: now };
  await db.transaction().execute(async (trx) => {
    // The shop's roles go right above the roles at or below ids.abovePosition (below the bot, which must outrank
    // the roles it gives); the roles above move up to make room, in the same order, so every position stays unique.
    await trx
      .updateTable('platform_roles')
      .set((eb) => ({ position: eb('position', '+', 4) }))
      .where('guild_id', '=', guildId)
      .where('position', '>', ids.abovePosition)
      .execute();
    const at = (n: number) => ids.abovePosition + n;
    await upsertPlatformRoles(trx, guildId, [
      { roleId: mint, name: 'Mint', position: at(1), color: 0x3eb489 },
      { roleId: ocean, name: 'Ocean', position: at(2), color: 0x1e90ff },
      { roleId: crimson, name: 'Crimson', position: at(3), color: 0xdc143c },
      { roleId: supporter, name: 'Supporter', position: at(4), color: 0xff69b4, hoist: true },
    ]);
    for (const [sortOrder, name] of ['Roles', 'Colours', 'Collectibles'].entries()) await createCategory(trx, { ...c, name, sortOrder });
    const cosmetics = await createStore(trx, {
      ...c,
      fields: { name: 'Cosmetics', emoji: '🎨', description: 'Name colours: one at a time.', color: '#E91E63', enabled: true, channelIds: [], sortOrder: 0 },
    });
    const items: Array<Partial<ItemFieldsInput> & Pick<ItemFieldsInput, 'name' | 'price' | 'type'>> = [
      { name: 'VIP Pass', emoji: '👑', price: 5000, type: 'role', roleId: ids.vipRole, category: 'Roles', perUserLimit: 1, minLevel: 5 },
      { name: 'Supporter (7 days)', emoji: '💖', price: 1500, type: 'role', roleId: supporter, durationSec: 7 * DAY_SEC, category: 'Roles', perUserLimit: 1 },
      { name: 'Golden Ticket', emoji: '🎫', price: 2500, type: 'item', category: 'Collectibles', stock: 5, perUserLimit: 1 },
      { name: 'Sticker Pack', emoji: '🧩', price: 50, type: 'item', category: 'Collectibles', consumable: true },
      { name: 'Custom Emoji Slot', emoji: '✨', price: 10_000, type: 'item', fulfillment: true, description: 'Staff add your emoji within a day.' },
      { name: 'Secret Menu', emoji: '🤫', price: 1, type: 'item', hidden: true },
      { name: 'Retired Badge', price: 100, type: 'item', enabled: false, stock: 0 },
      ...[
        ['Crimson Name', crimson],
        ['Ocean Name', ocean],
        ['Mint Name', mint],
      ].map(([name, roleId], i) => ({ name: name!, price: 800, type: 'color' as const, roleId: roleId!, storeId: cosmetics.id, category: 'Colours', sortOrder: i })),
    ];
    for (const [sortOrder, item] of items.entries()) await createItem(trx, { ...c, fields: { ...ITEM, sortOrder, ...item } });
  });
}
