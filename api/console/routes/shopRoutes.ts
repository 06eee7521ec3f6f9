import type { AppDeps } from '../../context.js';
import type { ConsoleRouter } from '../consoleState.js';
import { shopItemRoutes } from './shopItemRoutes.js';
import { shopPurchaseRoutes } from './shopPurchaseRoutes.js';
import { shopStoreRoutes } from './shopStoreRoutes.js';

/** The shop's pages under /console/servers/<id>/shop: stores, items, purchases and refunds. */
export function shopRoutes(router: ConsoleRouter, deps: AppDeps): void {
  shopStoreRoutes(router, deps);
  shopItemRoutes(router, deps);
  shopPurchaseRoutes(router, deps);
}
