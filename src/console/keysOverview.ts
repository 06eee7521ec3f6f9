import type { Kysely } from 'kysely';
import type { GuildRecord } from '../../db/guild/guilds.js';
import { countActiveApiKeys } from '../../db/keys/apiKeys.js';
import { findKeyRolls } from '../../db/keys/keyRolls.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../core/clock.js';
import type { MemberCache } from '../core/memberCache.js';
import { PLAN_LIMITS } from '../core/plans.js';
import { readKeys, type KeyView } from '../keys/readKeys.js';
import { memberNames } from './memberNames.js';

export interface KeyRow extends KeyView {
  /** The creator's display name where the platform knows them (null: show the id). */
  creatorName: string | null;
  /** The key that replaced this one in a roll. */
  rolledInto: number | null;
}

export interface KeysOverview {
  keys: KeyRow[];
  /** Keys counting toward the plan limit (not revoked, expired or replaced by a roll) and the limit. */
  active: number;
  limit: number;
}

/** The console's keys page: the server's keys with their creators' names and rolls, and the plan-limit counter. */
export async function readKeysOverview(deps: { db: Kysely<Database>; clock: Clock; memberCache: MemberCache }, guild: GuildRecord): Promise<KeysOverview> {
  const [keys, rolls, active] = await Promise.all([readKeys(deps.db, guild.id), findKeyRolls(deps.db, guild.id), countActiveApiKeys(deps.db, guild.id, deps.clock.now())]);
  const names = await memberNames(deps.memberCache, guild.id, keys.flatMap((k) => (k.createdBy ? [k.createdBy] : [])));
  return {
    keys: keys.map((k) => ({ ...k, creatorName: (k.createdBy && names.get(k.createdBy)) ?? null, rolledInto: rolls.get(k.id) ?? null })),
    active,
    limit: PLAN_LIMITS[guild.plan].activeApiKeys,
  };
}
