import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { lockItem, updateItem, type ShopItemRecord } from '../../db/shop/items.js';
import { shopItemNotFound } from './shopErrors.js';

export interface ItemToggle {
  guildId: string;
  itemId: number;
  enabled?: boolean;
  /** null = unlimited. */
  stock?: number | null;
  actor: AuditActor;
  requestId?: string;
  at: Date;
}

/** Turns an item on or off and restocks it, with the audit row (before and after), in the caller's transaction. */
export async function updateShopItem(trx: Kysely<Database>, t: ItemToggle): Promise<ShopItemRecord> {
  const before = await lockItem(trx, t.guildId, t.itemId);
  if (!before) throw shopItemNotFound();
  const changes = { ...(t.enabled === undefined ? {} : { enabled: t.enabled }), ...(t.stock === undefined ? {} : { stock: t.stock }) };
  const after = (await updateItem(trx, t.guildId, t.itemId, changes, t.at))!;
  await writeAudit(trx, {
    guildId: t.guildId,
    actor: t.actor,
    action: 'shop.itemUpdate',
    target: { type: 'shop_item', id: String(t.itemId) },
    requestId: t.requestId,
    data: { before: { enabled: before.enabled, stock: before.stock }, after: { enabled: after.enabled, stock: after.stock } },
  });
  return after;
}
