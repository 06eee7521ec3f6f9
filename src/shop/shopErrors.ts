import { AppError } from '../core/errors.js';

// The shop's refusals (spec: "Specific error codes of ... shop-write endpoints: not shown"; docs/api-decisions.md).

export const shopItemNotFound = () => new AppError('SHOP_ITEM_NOT_FOUND', 'No shop item with this id.');
export const purchaseNotFound = () => new AppError('PURCHASE_NOT_FOUND', 'No purchase with this id.');
export const shopItemDisabled = () => new AppError('SHOP_ITEM_DISABLED', 'The item, or its store, is disabled: it cannot be bought.');
export const outOfStock = () => new AppError('OUT_OF_STOCK', 'The item is out of stock.');
export const requirementNotMet = (requirement: 'roles' | 'level', detail: string) =>
  new AppError('REQUIREMENT_NOT_MET', `The member does not meet the item's requirement: ${detail}.`, { requirement });
export const purchaseLimitReached = (perUserLimit: number) =>
  new AppError('PURCHASE_LIMIT_REACHED', `The member already has ${perUserLimit} of this item, the most one member may have.`, { perUserLimit });
export const purchaseAlreadyRefunded = () => new AppError('PURCHASE_ALREADY_REFUNDED', 'The purchase was already refunded.');
