import type { Scope } from '../../src/core/scopes.js';
import { insufficientScope } from '../../src/core/errors.js';
import type { AppGate } from '../context.js';

/** Scopes are independent: only the exact scope counts. */
export function requireScope(scope: Scope): AppGate {
  return (ctx) => {
    if (!ctx.state.apiKey!.scopes.includes(scope)) throw insufficientScope(scope);
  };
}
