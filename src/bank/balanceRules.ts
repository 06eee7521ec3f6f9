import { balanceLimit, insufficientFunds } from '../core/errors.js';

/**
 * The new balance after an add or remove, or the spec's refusal. Without a configured maximum the
 * ceiling is Number.MAX_SAFE_INTEGER, so a balance can never leave the range JSON numbers carry exactly.
 */
export function nextBalance(current: number, change: { type: 'add' | 'remove'; amount: number }, maxBalance: number | null): number {
  if (change.type === 'remove') {
    if (change.amount > current) throw insufficientFunds(current);
    return current - change.amount;
  }
  const ceiling = Math.min(maxBalance ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  if (current + change.amount > ceiling) throw balanceLimit(ceiling);
  return current + change.amount;
}
