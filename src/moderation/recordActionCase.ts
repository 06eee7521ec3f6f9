import type { Kysely } from 'kysely';
import { addCaseEvent, findCase, listActiveCaseNumbers, resolveCase } from '../../db/moderation/cases.js';
import { findModAction, insertModAction, type ModActionRecord } from '../../db/moderation/actions.js';
import { findEscalationRule, findModerationSettings } from '../../db/moderation/settings.js';
import type { Database } from '../../db/schema.js';
import type { Logger } from '../core/logger.js';
import type { Platform } from '../core/platform.js';
import type { ModCaseBody } from './contract.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { startFanoutsOrLeaveToRelay } from '../events/outbox.js';
import type { OperationDeps } from '../core/temporal/operation.js';
import { actionModerator } from './actionModerator.js';
import { recordCase } from './recordCase.js';
import { recordMemberLeave, type LeaveReason } from '../guild/leaveMember.js';
import type { AuditActor } from '../../db/shared/audit.js';

const LEAVE_REASONS: Partial<Record<ModActionRecord['action'], LeaveReason>> = { kick: 'kicked', ban: 'banned' };

/** A ban with a duration is a tempban case. */
export const caseActionOf = (a: Pick<ModActionRecord, 'action' | 'request'>): ModActionRecord['action'] | 'tempban' =>
  a.action === 'ban' && a.request.durationSeconds ? 'tempban' : a.action;

/** Cases a later action ends: an untimeout revokes running timeouts, an unban running tempbans. */
const REVOKES: Partial<Record<ModActionRecord['action'], ModCaseBody['action'][]>> = { untimeout: ['timeout'], unban: ['tempban'] };

export const escalationActionId = (actionId: string) => `${actionId}.esc`;

export interface RecordedActionCase {
  caseNumber: number;
  /** When the case runs out on its own (timeout, tempban, expiring warning); the workflow's timer. */
  expiresAt: string | null;
  /** A warning that reached an escalation threshold: the escalation's action, for the workflow to start. */
  escalationActionId: string | null;
}

/**
 * Records the case of a finished action in one transaction with everything it implies: the DM status on
 * the timeline, revoking the cases it ends, and for a warning reaching a threshold, the escalation action
 * (its own case, source `escalation`, run by the bot). Repeating it returns the same case.
 */
export async function recordActionCase(
  deps: OperationDeps<Kysely<Database>> & { platform: Platform; logger: Logger },
  actionId: string,
  effect: { dmStatus: 'sent' | 'failed' | 'off'; until: string | null },
): Promise<RecordedActionCase> {
  const { db, clock } = deps;
  const guildLook = await deps.platform.getGuild((await findModAction(db, actionId))!.guildId);
  const events: OutboxEvent[] = [];
  const recorded = await db.transaction().execute(async (trx) => {
    const action = (await findModAction(trx, actionId))!;
    const at = clock.now();
    const settings = await findModerationSettings(trx, action.guildId);
    const caseAction = caseActionOf(action);
    const expiresAt =
      caseAction === 'warn'
        ? settings.warningExpirySeconds
          ? new Date(at.getTime() + settings.warningExpirySeconds * 1000)
          : null
        : effect.until
          ? new Date(effect.until)
          : null;
    const { key, moderatorId: by } = await actionModerator(trx, action);
    const moderatorId = by ?? guildLook!.botUserId;
    // The key's creator for an API action; the invoker for a slash command's; the signed-in manager for the
    // console's; the bot's own (an escalation): system.
    const actor: AuditActor = key
      ? { type: 'api_key', apiKeyId: key.id, userId: key.createdBy }
      : action.source === 'command' && by
        ? { type: 'member', userId: by }
        : action.source === 'console' && by
          ? { type: 'console_user', userId: by }
          : { type: 'system' };
    const target = await deps.platform.getMember(action.guildId, action.userId);
    const { number, event } = await recordCase(
      trx,
      {
        guildId: action.guildId,
        action: caseAction,
        userId: action.userId,
        // A kick or ban removed the member already: their name as the action's begin saw it.
        userTag: target?.username ?? action.targetMember?.username ?? null,
        moderatorId,
        reason: action.request.reason,
        durationSeconds: action.request.durationSeconds,
        evidence: action.request.evidence,
        source: action.source,
        active: ['warn', 'timeout', 'tempban'].includes(caseAction),
        expiresAt,
        dmStatus: effect.dmStatus,
        apiKey: key ? { id: key.id, name: key.name } : null,
        operationId: actionId,
        createdAt: at,
      },
      actor,
    );
    if (event) {
      events.push(event);
      await onNewCase(trx, { action, caseNumber: number, moderatorId, dmStatus: effect.dmStatus, at });
      events.push(...(await recordRemoval(trx, action, actor, at)));
    }
    const recorded = (await findCase(trx, action.guildId, number))!;
    const escalation = await findModAction(trx, escalationActionId(actionId));
    return { caseNumber: number, expiresAt: recorded.expiresAt?.toISOString() ?? null, escalationActionId: escalation?.actionId ?? null };
  });
  await startFanoutsOrLeaveToRelay(deps, events);
  return recorded;
}

/** A kick or ban of a member is their leave, recorded once with the case (a ban of a non-member is none). */
async function recordRemoval(trx: Kysely<Database>, action: ModActionRecord, actor: AuditActor, at: Date): Promise<OutboxEvent[]> {
  const reason = LEAVE_REASONS[action.action];
  if (!reason || !action.targetMember) return [];
  const leave = { guildId: action.guildId, userId: action.userId, username: action.targetMember.username, reason, at, actor };
  return (await recordMemberLeave(trx, leave)).events;
}

async function onNewCase(
  trx: Kysely<Database>,
  c: { action: ModActionRecord; caseNumber: number; moderatorId: string; dmStatus: 'sent' | 'failed' | 'off'; at: Date },
): Promise<void> {
  const { action, caseNumber, moderatorId, at } = c;
  const guildId = action.guildId;
  if (c.dmStatus !== 'off') await addCaseEvent(trx, { guildId, caseNumber, type: 'dm', actorId: null, data: { status: c.dmStatus }, at });
  for (const revoked of await listActiveCaseNumbers(trx, guildId, action.userId, REVOKES[action.action] ?? [])) {
    await resolveCase(trx, { guildId, caseNumber: revoked, how: 'revoked', actorId: moderatorId, data: { byCase: caseNumber }, at });
  }
  if (action.request.escalatedFrom !== undefined) {
    await addCaseEvent(trx, {
      guildId,
      caseNumber: action.request.escalatedFrom,
      type: 'escalated',
      actorId: null,
      data: { caseNumber, action: caseActionOf(action) },
      at,
    });
  }
  if (action.action !== 'warn') return;
  const activeWarnings = (await listActiveCaseNumbers(trx, guildId, action.userId, ['warn'])).length;
  const rule = await findEscalationRule(trx, guildId, activeWarnings);
  if (!rule) return;
  await insertModAction(trx, {
    actionId: escalationActionId(action.actionId),
    guildId,
    userId: action.userId,
    action: rule.action,
    apiKeyId: null,
    moderatorId: null,
    source: 'escalation',
    request: {
      reason: `Automatic: ${activeWarnings} active warnings`,
      evidence: [],
      durationSeconds: rule.durationSeconds,
      deleteMessageSeconds: 0,
      escalatedFrom: caseNumber,
    },
    requestedAt: at,
    // The warning's workflow starts it as a child, durably; the start relay must not.
    workflowStartedAt: at,
  });
}
