import type { GuildRecord } from '../../../db/guild/guilds.js';

// What the shop's pages share: their paths, the nav entry, prices in the server's currency.

export const shopPath = (guildId: string) => `/console/servers/${guildId}/shop`;
export const storeKey = (storeId: number | null) => (storeId === null ? 'main' : String(storeId));
export const storeItemsPath = (guildId: string, storeId: number | null) => `${shopPath(guildId)}/stores/${storeKey(storeId)}/items`;
export const itemPath = (guildId: string, itemId: number) => `${shopPath(guildId)}/items/${itemId}`;
export const purchasePath = (guildId: string, purchaseId: number) => `${shopPath(guildId)}/purchases/${purchaseId}`;
export const shopNav = (guild: GuildRecord) => ({ id: guild.id, name: guild.name, active: 'shop' as const });

export interface CurrencyName {
  name: string;
  plural: string;
  emoji: string | null;
}

export const priceText = (amount: number, currency: CurrencyName) => `${amount.toLocaleString('en-US')} ${amount === 1 ? currency.name : currency.plural}`;
