import type { Kysely } from 'kysely';
import { listAudit, type AuditActor, type AuditRecord } from '../../db/shared/audit.js';
import type { Database } from '../../db/schema.js';

export type { AuditRecord };
export const AUDIT_ACTOR_TYPES = ['console_user', 'api_key', 'operator', 'member', 'system'] as const satisfies ReadonlyArray<AuditActor['type']>;

/** One page of a server's audit log, newest first: who did what (console user, API key, operator, a member through the bot, system). */
export function readAuditLog(
  db: Kysely<Database>,
  guildId: string,
  filter: { actorType?: AuditActor['type']; actionPrefix?: string; beforeId?: string; limit: number },
): Promise<AuditRecord[]> {
  return listAudit(db, guildId, filter);
}
