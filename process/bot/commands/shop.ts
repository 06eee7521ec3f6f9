import { readShopItems } from '../../../src/shop/readShop.js';
import type { BotCommand } from './command.js';
import { listAnswer, money } from './format.js';

type Items = Awaited<ReturnType<typeof readShopItems>>;

/** The items a member can pick from: enabled and not hidden, in the shop's order (GET /shop/items). */
export async function itemsOnSale(deps: { db: Parameters<typeof readShopItems>[0] }, guildId: string): Promise<Items> {
  const shop = await readShopItems(deps.db, guildId, {});
  return { ...shop, items: shop.items.filter((i) => i.enabled && !i.hidden) };
}

function itemLine(item: Items['items'][number], currency: Items['currency']): string {
  const notes = [
    item.stock === null ? null : item.stock === 0 ? 'sold out' : `${item.stock} left`,
    item.minLevel > 0 ? `level ${item.minLevel}+` : null,
    item.requiredRoleIds.length > 0 ? `needs ${item.requiredRoleIds.map((r) => `<@&${r}>`).join(' ')}` : null,
  ].filter(Boolean);
  const price = item.price === 0 ? 'free' : money(item.price, currency);
  return `${item.emoji ? `${item.emoji} ` : ''}**${item.name}**: ${price}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
}

/** `/shop`: the store's items, as GET /shop/items lists them (disabled and hidden ones left out). */
export const shopCommand: BotCommand = {
  definition: { name: 'shop', description: 'The items on sale in the shop, with their prices' },
  feature: 'shop',
  async run({ deps, guildId }) {
    const { items, currency } = await itemsOnSale(deps, guildId);
    if (items.length === 0) return 'The shop has nothing on sale right now.';
    return listAnswer('**Shop**', items.map((i) => itemLine(i, currency)), 'Buy one with `/buy`.');
  },
};
