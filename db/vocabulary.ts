/**
 * The words the database stores in its guild and key columns: plans, feature switches and key scopes. They are
 * db's own vocabulary, so db/ needs nothing from above it; src/core builds its rules on these lists.
 */

/** Plans (spec: Limits). */
export const PLANS = ['free', 'pro'] as const;
export type Plan = (typeof PLANS)[number];

/** Feature switches of a server; every resource belongs to one (spec: What the service does). */
export const FEATURES = [
  'bank',
  'levels',
  'invites',
  'shop',
  'giveaways',
  'flows',
  'tickets',
  'applications',
  'appeals',
  'moderation',
  'members',
] as const;
export type Feature = (typeof FEATURES)[number];

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
