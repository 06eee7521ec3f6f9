import type { ColumnType, Generated } from 'kysely';

type Defaulted<T> = ColumnType<T, T | undefined, T>;

export type ShopItemType = 'role' | 'color' | 'item';
export type PurchaseStatus = 'owned' | 'used' | 'refunded';
export type PurchaseSource = 'buy' | 'grant';

export interface ShopStoresTable {
  id: Generated<number>;
  guild_id: string;
  name: string;
  emoji: string | null;
  description: string | null;
  color: string | null;
  enabled: Defaulted<boolean>;
  channel_ids: Defaulted<string[]>;
  sort_order: Defaulted<number>;
  created_at: Date;
}

export interface ShopCategoriesTable {
  guild_id: string;
  name: string;
  sort_order: Defaulted<number>;
}

export interface ShopItemsTable {
  id: Generated<number>;
  guild_id: string;
  store_id: number | null;
  name: string;
  description: string | null;
  emoji: string | null;
  price: number;
  type: ShopItemType;
  category: string | null;
  role_id: string | null;
  duration_sec: Defaulted<number>;
  consumable: Defaulted<boolean>;
  fulfillment: Defaulted<boolean>;
  stock: number | null;
  per_user_limit: number | null;
  required_role_ids: Defaulted<string[]>;
  min_level: Defaulted<number>;
  enabled: Defaulted<boolean>;
  hidden: Defaulted<boolean>;
  sort_order: Defaulted<number>;
  created_at: Date;
  updated_at: Date;
}

export interface ShopPurchasesTable {
  id: Generated<number>;
  guild_id: string;
  user_id: string;
  item_id: number | null;
  item_name: string;
  item_emoji: string | null;
  item_type: ShopItemType;
  store_id: number | null;
  store_name: string | null;
  source: PurchaseSource;
  status: PurchaseStatus;
  price_paid: number;
  role_id: string | null;
  expires_at: Date | null;
  transaction_id: number | null;
  created_at: Date;
  used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  refunded_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  refunded_by: ColumnType<string | null, string | null | undefined, string | null>;
  effects_started_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  refund_started_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}
