import type { Kysely } from 'kysely';
import type { Database, ModActionType } from '../schema.js';

type Db = Kysely<Database>;

export type ModActionStatus = 'pending' | 'running' | 'done' | 'failed';

/** What the caller asked for, as validated (reason, evidence, durations). */
export interface ModActionRequest {
  reason: string | null;
  evidence: string[];
  durationSeconds: number | null;
  deleteMessageSeconds: number;
  /** Escalations only: the warning case that triggered it. */
  escalatedFrom?: number;
}

export interface ModActionRecord {
  actionId: string;
  guildId: string;
  userId: string;
  action: ModActionType;
  /** The key an API action was asked with (its creator is the moderator, read when it runs); else null. */
  apiKeyId: number | null;
  /** The staff member who used a command (source `command`) or the dashboard (source `console`); null for API actions and escalations. */
  moderatorId: string | null;
  source: 'api' | 'escalation' | 'command' | 'console';
  request: ModActionRequest;
  status: ModActionStatus;
  caseNumber: number | null;
  error: string | null;
  requestedAt: Date;
  finishedAt: Date | null;
  /** The target as a member of the server when the action began; null when they were none (or it has not begun). */
  targetMember: { username: string | null } | null;
}

export async function insertModAction(
  trx: Db,
  a: Omit<ModActionRecord, 'status' | 'caseNumber' | 'error' | 'finishedAt' | 'targetMember'> & { workflowStartedAt?: Date },
): Promise<void> {
  await trx
    .insertInto('moderation_actions')
    .values({
      action_id: a.actionId,
      guild_id: a.guildId,
      user_id: a.userId,
      action: a.action,
      api_key_id: a.apiKeyId,
      moderator_id: a.moderatorId,
      source: a.source,
      request: JSON.stringify(a.request),
      status: 'pending',
      case_number: null,
      error: null,
      requested_at: a.requestedAt,
      finished_at: null,
      workflow_started_at: a.workflowStartedAt ?? null,
    })
    .execute();
}

export async function findModAction(db: Db, actionId: string): Promise<ModActionRecord | undefined> {
  const row = await db.selectFrom('moderation_actions').selectAll().where('action_id', '=', actionId).executeTakeFirst();
  return (
    row && {
      actionId: row.action_id,
      guildId: row.guild_id,
      userId: row.user_id,
      action: row.action,
      apiKeyId: row.api_key_id,
      moderatorId: row.moderator_id,
      source: row.source,
      request: row.request as ModActionRequest,
      status: row.status,
      caseNumber: row.case_number,
      error: row.error,
      requestedAt: row.requested_at,
      finishedAt: row.finished_at,
      targetMember: row.target_member,
    }
  );
}

/** What the action's begin saw of its target; a kick or ban that removes a member records their leave from it. */
export async function recordModActionTarget(db: Db, actionId: string, member: { username: string | null } | null): Promise<void> {
  await db
    .updateTable('moderation_actions')
    .set({ target_member: member && JSON.stringify(member) })
    .where('action_id', '=', actionId)
    .execute();
}

export async function markModActionRunning(db: Db, actionId: string): Promise<void> {
  await db.updateTable('moderation_actions').set({ status: 'running' }).where('action_id', '=', actionId).where('status', '=', 'pending').execute();
}

export type ModActionOutcome = { status: 'done'; caseNumber: number } | { status: 'failed'; error: string };

/** Records the outcome; only the first final outcome counts. */
export async function finishModAction(db: Db, actionId: string, outcome: ModActionOutcome, at: Date): Promise<void> {
  await db
    .updateTable('moderation_actions')
    .set({
      status: outcome.status,
      case_number: outcome.status === 'done' ? outcome.caseNumber : null,
      error: outcome.status === 'failed' ? outcome.error : null,
      finished_at: at,
    })
    .where('action_id', '=', actionId)
    .where('status', 'not in', ['done', 'failed'])
    .execute();
}

export async function markModActionStarted(db: Db, actionId: string, at: Date): Promise<void> {
  await db
    .updateTable('moderation_actions')
    .set({ workflow_started_at: at })
    .where('action_id', '=', actionId)
    .where('workflow_started_at', 'is', null)
    .execute();
}

export async function listUnstartedModActions(db: Db, olderThan: Date, limit: number) {
  const rows = await db
    .selectFrom('moderation_actions')
    .select(['action_id', 'guild_id', 'user_id', 'action'])
    .where('workflow_started_at', 'is', null)
    .where('requested_at', '<', olderThan)
    .orderBy('requested_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ actionId: r.action_id, guildId: r.guild_id, userId: r.user_id, action: r.action }));
}
