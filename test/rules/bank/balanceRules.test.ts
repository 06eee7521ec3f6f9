import { describe, expect, it } from 'vitest';
import { nextBalance } from '../../../src/bank/balanceRules.js';
import { AppError } from '../../../src/core/errors.js';

const MAX = Number.MAX_SAFE_INTEGER;

/** The AppError `fn` throws; fails the test when it returns or throws anything else. */
function refusalOf(fn: () => unknown): AppError {
  let result: unknown;
  try {
    result = fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error(`expected a refusal, got ${String(result)}`);
}

describe('nextBalance: removals', () => {
  it.each([
    [100, 30, null, 70],
    [100, 100, null, 0],
    [1, 1, null, 0],
    [0, 0, null, 0],
    [MAX, 1, null, MAX - 1],
    [MAX, MAX, null, 0],
    // A removal is never limited by the maximum, even when the balance sits above a lowered one.
    [500, 1, 100, 499],
    [500, 1, 0, 499],
  ])('%i - %i (max %s) = %i', (current, amount, max, expected) => {
    expect(nextBalance(current, { type: 'remove', amount }, max)).toBe(expected);
  });

  it.each([
    [100, 101],
    [0, 1],
    [999, 1_000_000_000_000],
    [MAX - 1, MAX],
  ])('refuses to take %i below zero by removing %i: 409 INSUFFICIENT_FUNDS with the balance', (current, amount) => {
    const err = refusalOf(() => nextBalance(current, { type: 'remove', amount }, null));
    expect(err.code).toBe('INSUFFICIENT_FUNDS');
    expect(err.status).toBe(409);
    expect(err.extra).toEqual({ balance: current });
    expect(err.message).toBe('The balance is too low for this removal.');
  });
});

describe('nextBalance: additions', () => {
  it.each([
    [0, 5, null, 5],
    [90, 10, 100, 100],
    [0, 0, 0, 0],
    [0, 1, 1, 1],
    [MAX - 1, 1, null, MAX],
    [MAX - 1_000_000_000_000, 1_000_000_000_000, null, MAX],
    // A configured maximum above 2^53-1 still cannot lift the ceiling past it.
    [MAX - 1, 1, 2 ** 60, MAX],
    [MAX - 1, 1, MAX, MAX],
  ])('%i + %i (max %s) = %i', (current, amount, max, expected) => {
    expect(nextBalance(current, { type: 'add', amount }, max)).toBe(expected);
  });

  it.each([
    ['one over the configured maximum', 90, 11, 100, 100],
    ['any addition with a maximum of 0', 0, 1, 0, 0],
    ['a balance already above a lowered maximum', 150, 1, 100, 100],
    ['one over 2^53-1 without a maximum', MAX, 1, null, MAX],
    ['far over 2^53-1 without a maximum', MAX - 5, 1_000_000_000_000, null, MAX],
    ['over 2^53-1 with a larger configured maximum', MAX, 1, 2 ** 60, MAX],
  ])('refuses %s: 422 BALANCE_LIMIT with the ceiling', (_label, current, amount, max, ceiling) => {
    const err = refusalOf(() => nextBalance(current, { type: 'add', amount }, max));
    expect(err.code).toBe('BALANCE_LIMIT');
    expect(err.status).toBe(422);
    expect(err.extra).toEqual({ maxBalance: ceiling });
    expect(err.message).toBe(`The change would take the balance above the limit of ${ceiling}.`);
  });

  it('always returns a safe integer for safe-integer inputs it accepts', () => {
    const cases: Array<[number, number]> = [
      [MAX - 3, 3],
      [2 ** 52, 2 ** 52 - 1],
      [1, MAX - 1],
    ];
    for (const [current, amount] of cases) {
      const result = nextBalance(current, { type: 'add', amount }, null);
      expect(Number.isSafeInteger(result)).toBe(true);
      expect(BigInt(result)).toBe(BigInt(current) + BigInt(amount));
    }
  });
});
