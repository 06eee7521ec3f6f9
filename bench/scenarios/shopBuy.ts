import { findLedgerMismatches } from '../../db/bank/accounts.js';
import { insertItem, type ShopItemInput } from '../../db/shop/items.js';
import { runLoad, type LoadResult } from '../load.js';
import { BENCH_GUILD_ID, memberId } from '../seed.js';
import type { ScenarioContext } from './context.js';

export interface ShopBuyResult {
  scenario: 'shop-buy';
  connections: number;
  durationSeconds: number;
  /** Buys of an unlimited item by random members (price 1; members without coins answer 409). */
  throughput: LoadResult & { sold: number };
  /** Every client buying one item of limited stock: sold must equal the stock, never more. */
  scarce: { stock: number; sold: number; stockLeft: number; load: LoadResult };
  /** Accounts whose balance differs from the sum of their ledger after both phases (must be 0). */
  ledgerMismatches: number;
}

const SCARCE_STOCK = 500;

/** A plain item (no role, so no effects workflow): the benchmark measures the buy's transaction. */
const ITEM_DEFAULTS_FOR_BENCH: ShopItemInput = {
  storeId: null, name: 'bench item', description: null, emoji: null, price: 1, type: 'item', category: null, roleId: null, durationSec: 0,
  consumable: false, fulfillment: false, stock: null, perUserLimit: null, requiredRoleIds: [], minLevel: 0, enabled: true, hidden: false, sortOrder: 0,
};

/** POST buys (shop-buy) from `connections` concurrent clients: throughput, then a rush on a scarce item. */
export async function runShopBuy(ctx: ScenarioContext): Promise<ShopBuyResult> {
  const hotMembers = Math.min(10_000, ctx.members);
  const at = new Date();
  const unlimited = await insertItem(ctx.db, BENCH_GUILD_ID, { ...ITEM_DEFAULTS_FOR_BENCH, name: `bench sticker ${at.toISOString()}` }, at);
  const scarce = await insertItem(ctx.db, BENCH_GUILD_ID, { ...ITEM_DEFAULTS_FOR_BENCH, name: `bench rare ${at.toISOString()}`, stock: SCARCE_STOCK }, at);

  const buyLoad = (itemId: number) =>
    runLoad({
      url: ctx.fullUrl,
      method: 'POST',
      connections: ctx.connections,
      durationSeconds: ctx.durationSeconds,
      setupRequest: (req) => ({
        ...req,
        path: `/api/v1/guilds/${BENCH_GUILD_ID}/shop/members/${memberId(Math.floor(Math.random() * hotMembers))}/purchases`,
        headers: { Authorization: `Bearer ${ctx.apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ itemId }),
      }),
    });

  const throughput = await buyLoad(unlimited.id);
  const scarceLoad = await buyLoad(scarce.id);
  // Requests still in flight when the load stopped commit afterwards: count once the numbers stop moving.
  const unlimitedCount = await settledCount(ctx, unlimited.id);
  const scarceCount = await settledCount(ctx, scarce.id);
  const mismatches = await findLedgerMismatches(ctx.db, BENCH_GUILD_ID);
  return {
    scenario: 'shop-buy',
    connections: ctx.connections,
    durationSeconds: ctx.durationSeconds,
    throughput: { ...throughput, sold: unlimitedCount.sold },
    scarce: { stock: SCARCE_STOCK, sold: scarceCount.sold, stockLeft: scarceCount.stockLeft ?? -1, load: scarceLoad },
    ledgerMismatches: mismatches.length,
  };
}

/** Units sold and stock left, read together (one statement), once two reads half a second apart agree (at most 20 reads). */
async function settledCount(ctx: ScenarioContext, itemId: number): Promise<{ sold: number; stockLeft: number | null }> {
  const read = async () => {
    const row = await ctx.db
      .selectFrom('shop_items')
      .select((eb) => ['stock', eb.selectFrom('shop_purchases').select((p) => p.fn.countAll<string>().as('n')).where('item_id', '=', itemId).as('sold')])
      .where('id', '=', itemId)
      .executeTakeFirstOrThrow();
    return { sold: Number(row.sold), stockLeft: row.stock };
  };
  let last = await read();
  for (let i = 0; i < 20; i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const next = await read();
    if (next.sold === last.sold) return next;
    last = next;
  }
  return last;
}
