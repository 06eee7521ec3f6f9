import { describe, expect, it } from 'vitest';
import { ITEM_DEFAULTS } from '../../api/shop/shopBed.js';
import { checkBuyable, colorRolesToRemove, purchaseExpiry } from '../../../src/shop/purchaseRules.js';
import { AppError } from '../../../src/core/errors.js';

const item = (overrides: Partial<typeof ITEM_DEFAULTS> = {}) => ({ id: 1, ...ITEM_DEFAULTS, ...overrides });
const buyer = { roleIds: ['1', '2'], level: 3, unitsHeld: 0 };

function refusal(act: () => void): { code: string; extra: Record<string, unknown> } | undefined {
  try {
    act();
    return undefined;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { code: err.code, extra: err.extra };
  }
}

describe('checkBuyable', () => {
  it('passes an enabled item without requirements', () => {
    expect(refusal(() => checkBuyable(item(), true, buyer))).toBeUndefined();
  });

  it.each([
    ['a disabled item', item({ enabled: false }), true, buyer, { code: 'SHOP_ITEM_DISABLED', extra: {} }],
    ['a disabled store', item(), false, buyer, { code: 'SHOP_ITEM_DISABLED', extra: {} }],
    ['a missing role of several', item({ requiredRoleIds: ['1', '9'] }), true, buyer, { code: 'REQUIREMENT_NOT_MET', extra: { requirement: 'roles' } }],
    ['a level too low', item({ minLevel: 4 }), true, buyer, { code: 'REQUIREMENT_NOT_MET', extra: { requirement: 'level' } }],
    ['the limit reached', item({ perUserLimit: 2 }), true, { ...buyer, unitsHeld: 2 }, { code: 'PURCHASE_LIMIT_REACHED', extra: { perUserLimit: 2 } }],
    ['disabled before requirements', item({ enabled: false, minLevel: 99 }), true, buyer, { code: 'SHOP_ITEM_DISABLED', extra: {} }],
    ['roles before level', item({ requiredRoleIds: ['9'], minLevel: 99 }), true, buyer, { code: 'REQUIREMENT_NOT_MET', extra: { requirement: 'roles' } }],
  ])('refuses %s', (_name, it_, storeEnabled, who, expected) => {
    expect(refusal(() => checkBuyable(it_, storeEnabled, who))).toEqual(expected);
  });

  it('accepts every required role held, the exact level and one unit under the limit', () => {
    expect(refusal(() => checkBuyable(item({ requiredRoleIds: ['1', '2'], minLevel: 3, perUserLimit: 1 }), true, buyer))).toBeUndefined();
  });
});

describe('purchaseExpiry', () => {
  const at = new Date('2026-11-24T12:00:00Z');
  it('is durationSec after the purchase for a timed role, null otherwise', () => {
    expect(purchaseExpiry({ roleId: '5', durationSec: 3600 }, at)).toEqual(new Date('2026-11-24T13:00:00Z'));
    expect(purchaseExpiry({ roleId: '5', durationSec: 0 }, at)).toBeNull();
    expect(purchaseExpiry({ roleId: null, durationSec: 3600 }, at)).toBeNull();
  });
});

describe('colorRolesToRemove', () => {
  it("takes the member's other shop colour roles off, never the new one or other roles", () => {
    expect(colorRolesToRemove(['a', 'red', 'blue', 'green'], ['red', 'blue', 'green', 'pink'], 'green')).toEqual(['red', 'blue']);
    expect(colorRolesToRemove(['a'], ['red'], 'red')).toEqual([]);
  });
});
