import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export type AuditActor =
  | { type: 'api_key'; apiKeyId: number; userId: string | null }
  | { type: 'operator'; name: string | null }
  | { type: 'system' };

export interface AuditEntry {
  guildId: string;
  actor: AuditActor;
  action: string;
  target?: { type: string; id: string };
  requestId?: string;
  data?: Record<string, unknown>;
}

const auditRow = (entry: AuditEntry) => {
  const { actor } = entry;
  return {
    guild_id: entry.guildId,
    actor_type: actor.type,
    actor_id: actor.type === 'api_key' ? actor.userId : actor.type === 'operator' ? actor.name : null,
    api_key_id: actor.type === 'api_key' ? actor.apiKeyId : null,
    action: entry.action,
    target_type: entry.target?.type ?? null,
    target_id: entry.target?.id ?? null,
    request_id: entry.requestId ?? null,
    data: JSON.stringify(entry.data ?? {}),
  };
};

/** Always called with the transaction that makes the change (DESIGN invariant 1). */
export async function writeAudit(trx: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await trx.insertInto('audit_log').values(auditRow(entry)).execute();
}

/** Several audit rows in one statement, in the order given (a batch of activity the bot counted). */
export async function writeAudits(trx: Kysely<Database>, entries: AuditEntry[]): Promise<void> {
  if (entries.length > 0) await trx.insertInto('audit_log').values(entries.map(auditRow)).execute();
}
