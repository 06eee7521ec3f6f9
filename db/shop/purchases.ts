import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, PurchaseSource, PurchaseStatus, ShopItemType, ShopPurchasesTable } from '../schema.js';

export interface PurchaseRecord {
  id: number;
  guildId: string;
  userId: string;
  item: { id: number | null; name: string; emoji: string | null; type: ShopItemType };
  store: { id: number | null; name: string | null };
  source: PurchaseSource;
  status: PurchaseStatus;
  pricePaid: number;
  roleId: string | null;
  expiresAt: Date | null;
  transactionId: number | null;
  createdAt: Date;
  refundedAt: Date | null;
  refundedBy: string | null;
}

export type NewPurchase = Omit<PurchaseRecord, 'id' | 'status' | 'refundedAt' | 'refundedBy'>;

const toRecord = (r: Selectable<ShopPurchasesTable>): PurchaseRecord => ({
  id: r.id,
  guildId: r.guild_id,
  userId: r.user_id,
  item: { id: r.item_id, name: r.item_name, emoji: r.item_emoji, type: r.item_type },
  store: { id: r.store_id, name: r.store_name },
  source: r.source,
  status: r.status,
  pricePaid: r.price_paid,
  roleId: r.role_id,
  expiresAt: r.expires_at,
  transactionId: r.transaction_id,
  createdAt: r.created_at,
  refundedAt: r.refunded_at,
  refundedBy: r.refunded_by,
});

export async function insertPurchase(trx: Kysely<Database>, p: NewPurchase): Promise<PurchaseRecord> {
  const row = await trx
    .insertInto('shop_purchases')
    .values({
      guild_id: p.guildId,
      user_id: p.userId,
      item_id: p.item.id,
      item_name: p.item.name,
      item_emoji: p.item.emoji,
      item_type: p.item.type,
      store_id: p.store.id,
      store_name: p.store.name,
      source: p.source,
      status: 'owned',
      price_paid: p.pricePaid,
      role_id: p.roleId,
      expires_at: p.expiresAt,
      transaction_id: p.transactionId,
      created_at: p.createdAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

export async function findPurchase(db: Kysely<Database>, guildId: string, id: number): Promise<PurchaseRecord | undefined> {
  const row = await db.selectFrom('shop_purchases').selectAll().where('guild_id', '=', guildId).where('id', '=', id).executeTakeFirst();
  return row && toRecord(row);
}

export async function lockPurchase(trx: Kysely<Database>, guildId: string, id: number): Promise<PurchaseRecord | undefined> {
  const row = await trx.selectFrom('shop_purchases').selectAll().where('guild_id', '=', guildId).where('id', '=', id).forUpdate().executeTakeFirst();
  return row && toRecord(row);
}

export interface PurchaseFilter {
  userId?: string;
  itemId?: number;
  status?: PurchaseStatus;
  source?: PurchaseSource;
  before?: number;
  limit: number;
}

/** Newest first by id (keyset on `before`), so a page never shifts when new purchases arrive. */
export async function listPurchases(db: Kysely<Database>, guildId: string, f: PurchaseFilter): Promise<PurchaseRecord[]> {
  let query = db.selectFrom('shop_purchases').selectAll().where('guild_id', '=', guildId);
  if (f.userId !== undefined) query = query.where('user_id', '=', f.userId);
  if (f.itemId !== undefined) query = query.where('item_id', '=', f.itemId);
  if (f.status !== undefined) query = query.where('status', '=', f.status);
  if (f.source !== undefined) query = query.where('source', '=', f.source);
  if (f.before !== undefined) query = query.where('id', '<', f.before);
  const rows = await query.orderBy('id', 'desc').limit(f.limit).execute();
  return rows.map(toRecord);
}

/** Units of an item a member holds or held (refunded ones do not count toward perUserLimit). */
export async function countUnrefunded(db: Kysely<Database>, itemId: number, userId: string): Promise<number> {
  const row = await db
    .selectFrom('shop_purchases')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('item_id', '=', itemId)
    .where('user_id', '=', userId)
    .where('status', '!=', 'refunded')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function markRefunded(trx: Kysely<Database>, id: number, by: string | null, at: Date): Promise<PurchaseRecord> {
  const row = await trx
    .updateTable('shop_purchases')
    .set({ status: 'refunded', refunded_at: at, refunded_by: by })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

/** A timed role that ran out becomes `used`; false when it is no longer owned (refunded meanwhile). */
export async function markExpired(db: Kysely<Database>, guildId: string, id: number, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('shop_purchases')
    .set({ status: 'used', used_at: at })
    .where('guild_id', '=', guildId)
    .where('id', '=', id)
    .where('status', '=', 'owned')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Whether another owned, unexpired purchase of the member gives the role (then a refund or expiry keeps it). */
export async function roleHeldByOtherPurchase(db: Kysely<Database>, p: { guildId: string; userId: string; roleId: string; exceptId: number; at: Date }): Promise<boolean> {
  const row = await db
    .selectFrom('shop_purchases')
    .select('id')
    .where('guild_id', '=', p.guildId)
    .where('user_id', '=', p.userId)
    .where('role_id', '=', p.roleId)
    .where('status', '=', 'owned')
    .where('id', '!=', p.exceptId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', p.at)]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export type PurchaseRef = { guildId: string; purchaseId: number };

export async function markEffectsStarted(db: Kysely<Database>, r: PurchaseRef, at: Date): Promise<void> {
  await db.updateTable('shop_purchases').set({ effects_started_at: at }).where('id', '=', r.purchaseId).where('effects_started_at', 'is', null).execute();
}

export async function markRefundStarted(db: Kysely<Database>, r: PurchaseRef, at: Date): Promise<void> {
  await db.updateTable('shop_purchases').set({ refund_started_at: at }).where('id', '=', r.purchaseId).where('refund_started_at', 'is', null).execute();
}

/** Purchases with a role whose effects workflow start was not recorded, oldest first (the start relay). */
export async function listUnstartedEffects(db: Kysely<Database>, olderThan: Date, limit: number): Promise<PurchaseRef[]> {
  const { rows } = await sql<{ guild_id: string; id: number }>`
    select guild_id, id from shop_purchases
    where role_id is not null and effects_started_at is null and created_at < ${olderThan}
    order by created_at limit ${limit}`.execute(db);
  return rows.map((r) => ({ guildId: r.guild_id, purchaseId: r.id }));
}

/** Refunded purchases with a role whose refund workflow start was not recorded, oldest first. */
export async function listUnstartedRefunds(db: Kysely<Database>, olderThan: Date, limit: number): Promise<PurchaseRef[]> {
  const { rows } = await sql<{ guild_id: string; id: number }>`
    select guild_id, id from shop_purchases
    where role_id is not null and status = 'refunded' and refund_started_at is null and refunded_at < ${olderThan}
    order by refunded_at limit ${limit}`.execute(db);
  return rows.map((r) => ({ guildId: r.guild_id, purchaseId: r.id }));
}

/**
 * Orders one member's buys of the server for the rest of the transaction (a transaction-scoped advisory lock),
 * so two buys at once cannot both pass the per-member limit, also before the member has a bank account to lock.
 */
export async function lockMemberPurchases(trx: Kysely<Database>, guildId: string, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`shop:${guildId}:${userId}`}, 0))`.execute(trx);
}
