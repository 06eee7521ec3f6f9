import type { Kysely } from 'kysely';
import { insertApiKey } from '../../db/keys/apiKeys.js';
import { findLiveRollPredecessor, findKeyForRoll, markKeyRolled, type RollableKey } from '../../db/keys/keyRolls.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../core/clock.js';
import { KeyManagementError, type CreatedKey, type KeyExpiryDays } from './keyManagement.js';
import { generateApiKey } from './keyMaterial.js';

/** How long the old key keeps working after a roll (Stripe's "roll key" offers the same kind of choice). */
export const ROLL_OVERLAPS = { now: 0, '1h': 3_600_000, '24h': 86_400_000, '7d': 7 * 86_400_000 } as const;
export type RollOverlap = keyof typeof ROLL_OVERLAPS;
export const isRollOverlap = (value: string): value is RollOverlap => Object.hasOwn(ROLL_OVERLAPS, value);

export interface RolledKey {
  old: RollableKey;
  /** When the old key stops working (it is refused as expired from then on). */
  oldUntil: Date;
  created: CreatedKey;
}

/** Why a key cannot be rolled now; undefined when it can. */
async function refusalOf(db: Kysely<Database>, guildId: string, id: number, key: RollableKey | undefined, now: Date): Promise<KeyManagementError | undefined> {
  if (!key) return new KeyManagementError('KEY_NOT_FOUND', `Guild ${guildId} has no API key ${id}.`);
  if (key.revokedAt) return new KeyManagementError('KEY_ALREADY_REVOKED', `The key "${key.name}" is revoked.`);
  if (key.rolledInto !== null) return new KeyManagementError('KEY_ALREADY_ROLLED', `The key "${key.name}" was already rolled; roll its replacement instead.`);
  if (key.expiresAt && key.expiresAt <= now) return new KeyManagementError('KEY_EXPIRED', `The key "${key.name}" has expired; create a new one.`);
  // One overlap at a time, so rolling cannot hold more working keys than the plan allows plus one old key each.
  const previousUntil = await findLiveRollPredecessor(db, id, now);
  if (previousUntil) {
    return new KeyManagementError(
      'KEY_ROLL_IN_PROGRESS',
      `The key "${key.name}" replaced a key that still works until ${previousUntil.toISOString()}; revoke that one first, or roll after then.`,
    );
  }
  return undefined;
}

/** Whether the key can be rolled now (for the confirmation page); throws the refusal the roll would meet. */
export async function checkRollable(db: Kysely<Database>, clock: Clock, guildId: string, id: number): Promise<void> {
  const refusal = await refusalOf(db, guildId, id, await findKeyForRoll(db, guildId, id, false), clock.now());
  if (refusal) throw refusal;
}

/**
 * Rolls a key: a new secret with the same name and scopes (and an expiry of its own, chosen as at creation), while
 * the old key keeps working for `overlap` and is then refused as expired, by itself.
 * The new key's creator is the one who rolled it: moderation writes act in the name of a key's creator, so a
 * manager never obtains a secret that acts as somebody else. Audit-logged with the change.
 */
export async function rollApiKey(
  db: Kysely<Database>,
  clock: Clock,
  input: { guildId: string; id: number; overlap: RollOverlap; expiresInDays: KeyExpiryDays | null; createdBy: string | null; actor: AuditActor },
): Promise<RolledKey> {
  return db.transaction().execute(async (trx) => {
    const now = clock.now();
    const old = await findKeyForRoll(trx, input.guildId, input.id, true);
    const refusal = await refusalOf(trx, input.guildId, input.id, old, now);
    if (refusal) throw refusal;
    const material = generateApiKey();
    const record = await insertApiKey(trx, {
      guildId: input.guildId,
      name: old!.name,
      prefix: material.prefix,
      hash: material.hash,
      scopes: old!.scopes,
      createdBy: input.createdBy,
      expiresAt: input.expiresInDays === null ? null : new Date(now.getTime() + input.expiresInDays * 86_400_000),
    });
    const overlapEnd = now.getTime() + ROLL_OVERLAPS[input.overlap];
    const oldUntil = new Date(old!.expiresAt ? Math.min(old!.expiresAt.getTime(), overlapEnd) : overlapEnd);
    await markKeyRolled(trx, old!.id, record.id, oldUntil);
    await writeAudit(trx, {
      guildId: input.guildId,
      actor: input.actor,
      action: 'api_key.roll',
      target: { type: 'api_key', id: String(old!.id) },
      data: { name: old!.name, prefix: old!.prefix, oldKeyUntil: oldUntil, newKeyId: record.id, newPrefix: record.prefix, expiresAt: record.expiresAt },
    });
    return { old: old!, oldUntil, created: { ...record, key: material.key } };
  });
}
