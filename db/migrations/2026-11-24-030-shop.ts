import { sql, type Kysely } from 'kysely';

/**
 * The shop: stores (the built-in Main store has no row), categories, items and one purchase row per unit
 * bought or granted. Purchases keep the item's name, emoji, type and store as they were, so a purchase
 * still reads the same after its item changed or was deleted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('shop_stores')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('emoji', 'text')
    .addColumn('description', 'text')
    .addColumn('color', 'text')
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('channel_ids', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('shop_stores_guild_idx').on('shop_stores').columns(['guild_id', 'sort_order', 'id']).execute();

  await db.schema
    .createTable('shop_categories')
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('shop_categories_pk', ['guild_id', 'name'])
    .execute();

  await db.schema
    .createTable('shop_items')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('store_id', 'integer', (c) => c.references('shop_stores.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('emoji', 'text')
    .addColumn('price', 'bigint', (c) => c.notNull().check(sql`price >= 0`))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('category', 'text')
    .addColumn('role_id', 'text')
    .addColumn('duration_sec', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('consumable', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('fulfillment', 'boolean', (c) => c.notNull().defaultTo(false))
    // null = unlimited; the buy takes a unit with `stock = stock - 1 WHERE stock > 0`, so it never goes below 0.
    .addColumn('stock', 'integer', (c) => c.check(sql`stock >= 0`))
    .addColumn('per_user_limit', 'integer')
    .addColumn('required_role_ids', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('min_level', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('hidden', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('shop_items_guild_idx').on('shop_items').columns(['guild_id', 'sort_order', 'id']).execute();

  await db.schema
    .createTable('shop_purchases')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('guild_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('item_id', 'integer', (c) => c.references('shop_items.id').onDelete('set null'))
    .addColumn('item_name', 'text', (c) => c.notNull())
    .addColumn('item_emoji', 'text')
    .addColumn('item_type', 'text', (c) => c.notNull())
    .addColumn('store_id', 'integer')
    .addColumn('store_name', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('price_paid', 'bigint', (c) => c.notNull())
    .addColumn('role_id', 'text')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('transaction_id', 'bigint')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('refunded_at', 'timestamptz')
    .addColumn('refunded_by', 'text')
    // When the effects and refund workflows were started; null while the start relay still has to start them.
    .addColumn('effects_started_at', 'timestamptz')
    .addColumn('refund_started_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('shop_purchases_guild_idx').on('shop_purchases').columns(['guild_id', 'id']).execute();
  await db.schema.createIndex('shop_purchases_member_idx').on('shop_purchases').columns(['guild_id', 'user_id', 'id']).execute();
  await db.schema.createIndex('shop_purchases_item_idx').on('shop_purchases').columns(['item_id', 'user_id']).execute();
  // The start relay's lookups: only rows whose workflow start was not recorded are in these indexes.
  await sql`CREATE INDEX shop_purchases_effects_unstarted_idx ON shop_purchases (created_at)
    WHERE role_id IS NOT NULL AND effects_started_at IS NULL`.execute(db);
  await sql`CREATE INDEX shop_purchases_refund_unstarted_idx ON shop_purchases (refunded_at)
    WHERE role_id IS NOT NULL AND status = 'refunded' AND refund_started_at IS NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('shop_purchases').execute();
  await db.schema.dropTable('shop_items').execute();
  await db.schema.dropTable('shop_categories').execute();
  await db.schema.dropTable('shop_stores').execute();
}
