/** The spec's scopes (Authentication). Each is independent: bank:write does not include bank:read. */
export const SCOPES = [
  'guild:read',
  'bank:read',
  'bank:write',
  'levels:read',
  'levels:write',
  'invites:read',
  'invites:write',
  'shop:read',
  'shop:write',
  'giveaways:read',
  'giveaways:write',
  'flows:read',
  'flows:run',
  'tickets:read',
  'tickets:write',
  'applications:read',
  'applications:write',
  'appeals:read',
  'appeals:write',
  'moderation:read',
  'moderation:write',
] as const;

export type Scope = (typeof SCOPES)[number];

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

/** Parses `all` or a comma-separated list; returns the unknown names so callers can refuse them. */
export function parseScopes(input: string): { scopes: Scope[]; unknown: string[] } {
  if (input.trim() === 'all') return { scopes: [...SCOPES], unknown: [] };
  const names = [...new Set(input.split(',').map((s) => s.trim()).filter(Boolean))];
  return { scopes: names.filter(isScope), unknown: names.filter((n) => !isScope(n)) };
}
