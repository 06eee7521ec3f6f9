import { SCOPES, type Scope } from '../../db/vocabulary.js';

export { SCOPES, type Scope };

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

/** Parses `all` or a comma-separated list; returns the unknown names so callers can refuse them. */
export function parseScopes(input: string): { scopes: Scope[]; unknown: string[] } {
  if (input.trim() === 'all') return { scopes: [...SCOPES], unknown: [] };
  const names = [...new Set(input.split(',').map((s) => s.trim()).filter(Boolean))];
  return { scopes: names.filter(isScope), unknown: names.filter((n) => !isScope(n)) };
}

/**
 * Scopes the console marks as sensitive: the spec's (Authentication: shop:write, flows:run, appeals:write and both
 * moderation scopes), and bank:write, which issue 35 names with them (it moves members' money).
 */
export const SENSITIVE_SCOPES: ReadonlySet<Scope> = new Set<Scope>(['bank:write', 'shop:write', 'flows:run', 'appeals:write', 'moderation:read', 'moderation:write']);
