import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { upsertPlatformMember } from '../../db/platform/local.js';
import type { Database } from '../../db/schema.js';
import { systemClock, type Clock } from '../../src/core/clock.js';
import { FEATURES, type Feature } from '../../src/core/features.js';
import type { Plan } from '../../src/core/plans.js';
import { SCOPES, type Scope } from '../../src/core/scopes.js';
import { createGuild } from '../../src/guild/guildManagement.js';
import { createApiKey, type CreatedKey, type KeyExpiryDays } from '../../src/keys/keyManagement.js';

/** A random 19-digit snowflake, as the platform would issue. */
export const snowflake = () => `1${String(randomInt(0, 2 ** 47)).padStart(18, '0')}`;

export interface TestGuild {
  id: string;
  ownerId: string;
  botUserId: string;
}

export async function createTestGuild(
  db: Kysely<Database>,
  options: { plan?: Plan; features?: Feature[]; blocked?: boolean; name?: string } = {},
): Promise<TestGuild> {
  const guild = { id: snowflake(), ownerId: snowflake(), botUserId: snowflake() };
  await createGuild(db, {
    id: guild.id,
    name: options.name ?? 'Test Guild',
    icon: null,
    locale: 'en',
    plan: options.plan ?? 'pro',
    features: options.features ?? [...FEATURES],
    blocked: options.blocked ?? false,
    ownerId: guild.ownerId,
    botUserId: guild.botUserId,
    actor: { type: 'system' },
  });
  return guild;
}

export async function createTestKey(
  db: Kysely<Database>,
  guild: TestGuild,
  options: { scopes?: Scope[]; expiresInDays?: KeyExpiryDays | null; clock?: Clock; name?: string; createdBy?: string | null } = {},
): Promise<CreatedKey> {
  return createApiKey(db, options.clock ?? systemClock, {
    guildId: guild.id,
    name: options.name ?? 'test key',
    scopes: options.scopes ?? [...SCOPES],
    expiresInDays: options.expiresInDays ?? null,
    createdBy: options.createdBy === undefined ? guild.ownerId : options.createdBy,
    actor: { type: 'system' },
  });
}

export async function addTestMember(
  db: Kysely<Database>,
  guild: TestGuild,
  options: { userId?: string; username?: string; bot?: boolean; roleIds?: string[] } = {},
): Promise<string> {
  const userId = options.userId ?? snowflake();
  await upsertPlatformMember(db, {
    guildId: guild.id,
    userId,
    username: options.username ?? `user${userId.slice(-4)}`,
    bot: options.bot ?? false,
    roleIds: options.roleIds ?? [],
  });
  return userId;
}

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
