import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export type AuditActor =
  | { type: 'api_key'; apiKeyId: number; userId: string | null }
  | { type: 'operator'; name: string | null }
  /** A server manager signed in to the web console (the platform's user id). */
  | { type: 'console_user'; userId: string }
  /** A member acting through the bot's slash commands (the platform's user id of the invoker). */
  | { type: 'member'; userId: string }
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
    actor_id: actor.type === 'api_key' || actor.type === 'console_user' || actor.type === 'member' ? actor.userId : actor.type === 'operator' ? actor.name : null,
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

export interface AuditRecord {
  id: string;
  actorType: AuditActor['type'];
  actorId: string | null;
  apiKeyId: number | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  data: unknown;
  createdAt: Date;
}

export interface AuditFilter {
  actorType?: AuditActor['type'];
  /** Actions starting with this text (`api_key.` for every key action). */
  actionPrefix?: string;
  /** Only rows older than this id (the next page). */
  beforeId?: string;
  limit: number;
}

/** A server's audit log, newest first. */
export async function listAudit(db: Kysely<Database>, guildId: string, filter: AuditFilter): Promise<AuditRecord[]> {
  let query = db.selectFrom('audit_log').selectAll().where('guild_id', '=', guildId);
  if (filter.actorType) query = query.where('actor_type', '=', filter.actorType);
  if (filter.actionPrefix) query = query.where('action', 'like', `${filter.actionPrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  if (filter.beforeId) query = query.where('id', '<', filter.beforeId);
  const rows = await query.orderBy('id', 'desc').limit(filter.limit).execute();
  return rows.map((r) => ({
    id: String(r.id),
    actorType: r.actor_type,
    actorId: r.actor_id,
    apiKeyId: r.api_key_id,
    action: r.action,
    targetType: r.target_type,
    targetId: r.target_id,
    data: r.data,
    createdAt: r.created_at,
  }));
}
