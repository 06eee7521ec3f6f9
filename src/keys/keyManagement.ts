import type { Kysely } from 'kysely';
import { countActiveApiKeys, findApiKey, insertApiKey, markApiKeyRevoked, type ApiKeyRecord } from '../../db/keys/apiKeys.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../core/clock.js';
import { PLAN_LIMITS, type Plan } from '../core/plans.js';
import type { Scope } from '../core/scopes.js';
import { generateApiKey } from './keyMaterial.js';
import { Refusal } from '../core/refusal.js';

export const KEY_EXPIRY_DAYS = [30, 90, 365] as const;
export type KeyExpiryDays = (typeof KEY_EXPIRY_DAYS)[number];

/** Refusals an operator sees in the admin CLI (and later the console). */
export class KeyManagementError extends Refusal<
  'GUILD_NOT_FOUND' | 'KEY_LIMIT_REACHED' | 'KEY_NOT_FOUND' | 'KEY_ALREADY_REVOKED' | 'KEY_EXPIRED' | 'KEY_ALREADY_ROLLED' | 'KEY_ROLL_IN_PROGRESS'
> {}

export interface CreateKeyInput {
  guildId: string;
  name: string;
  scopes: Scope[];
  expiresInDays: KeyExpiryDays | null;
  createdBy: string | null;
  actor: AuditActor;
}

export interface CreatedKey extends ApiKeyRecord {
  /** The full key: shown once, never stored. */
  key: string;
}

const DAY_MS = 86_400_000;

export async function createApiKey(db: Kysely<Database>, clock: Clock, input: CreateKeyInput): Promise<CreatedKey> {
  return db.transaction().execute(async (trx) => {
    // The row lock serialises concurrent creations for one guild, so the plan limit cannot be overshot.
    const guild = await trx
      .selectFrom('guilds')
      .select(['id', 'plan'])
      .where('id', '=', input.guildId)
      .forUpdate()
      .executeTakeFirst();
    if (!guild) throw new KeyManagementError('GUILD_NOT_FOUND', `Guild ${input.guildId} does not exist.`);
    const now = clock.now();
    const limit = PLAN_LIMITS[guild.plan as Plan].activeApiKeys;
    const active = await countActiveApiKeys(trx, input.guildId, now);
    if (active >= limit) {
      throw new KeyManagementError(
        'KEY_LIMIT_REACHED',
        `Guild ${input.guildId} already has ${active} active API keys, the most its ${guild.plan} plan allows (${limit}). Revoke one first.`,
      );
    }
    const material = generateApiKey();
    const record = await insertApiKey(trx, {
      guildId: input.guildId,
      name: input.name,
      prefix: material.prefix,
      hash: material.hash,
      scopes: input.scopes,
      createdBy: input.createdBy,
      expiresAt: input.expiresInDays === null ? null : new Date(now.getTime() + input.expiresInDays * DAY_MS),
    });
    await writeAudit(trx, {
      guildId: input.guildId,
      actor: input.actor,
      action: 'api_key.create',
      target: { type: 'api_key', id: String(record.id) },
      data: { name: record.name, prefix: record.prefix, scopes: record.scopes, expiresAt: record.expiresAt },
    });
    return { ...record, key: material.key };
  });
}

// A second revocation is refused rather than repeated, so the audit log records the one that took effect.
async function notRevocable(db: Kysely<Database>, guildId: string, id: number): Promise<KeyManagementError> {
  const key = await findApiKey(db, guildId, id);
  return key?.revokedAt
    ? new KeyManagementError('KEY_ALREADY_REVOKED', `API key ${id} of guild ${guildId} was already revoked at ${key.revokedAt.toISOString()}.`)
    : new KeyManagementError('KEY_NOT_FOUND', `Guild ${guildId} has no API key ${id}.`);
}

export async function revokeApiKey(
  db: Kysely<Database>,
  clock: Clock,
  input: { guildId: string; id: number; actor: AuditActor },
): Promise<ApiKeyRecord> {
  return db.transaction().execute(async (trx) => {
    const record = await markApiKeyRevoked(trx, input.guildId, input.id, clock.now());
    if (!record) throw await notRevocable(trx, input.guildId, input.id);
    await writeAudit(trx, {
      guildId: input.guildId,
      actor: input.actor,
      action: 'api_key.revoke',
      target: { type: 'api_key', id: String(record.id) },
      data: { name: record.name, prefix: record.prefix },
    });
    return record;
  });
}

