import { Refusal } from '../core/refusal.js';

/** Why a staff change of the catalog is refused (the admin CLI prints the code and the message). */
export class ShopRefusal extends Refusal<'STORE_NOT_FOUND' | 'SHOP_ITEM_NOT_FOUND' | 'CATEGORY_NOT_FOUND' | 'CATEGORY_EXISTS' | 'INVALID_ITEM'> {}
