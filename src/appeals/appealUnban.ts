import type { Kysely } from 'kysely';
import type { AppealRecord } from '../../db/appeals/appeals.js';
import { keyActor } from '../keys/keyActor.js';
import { findCaseByOperation, listActiveCaseNumbers, resolveCase } from '../../db/moderation/cases.js';
import type { Database } from '../../db/schema.js';
import type { AuditActor } from '../../db/shared/audit.js';
import type { Platform } from '../core/platform.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { isFeatureEnabled } from '../guild/featureEnabled.js';
import { recordCase } from '../moderation/recordCase.js';

/** What lifting an approved appeal's ban comes to: whether there is a ban to lift, and the unban case. */
export interface AppealUnban {
  /** False when the appellant is not banned (and no case was recorded before): nothing to lift. */
  lift: boolean;
  /** The unban case, or null when Moderation is off or there is nothing to lift. */
  caseNumber: number | null;
  /** The new case's event, for the caller to start its fan-out. */
  events: OutboxEvent[];
}

/**
 * Prepares lifting an approved appeal's ban: records the unban case first when Moderation is on, acting for
 * the console user who decided, else the key's creator, else the bot, and revokes the appellant's active tempbans. The case's operation id
 * makes a retry find it, so a retry after the unban still ends with exactly one case; the caller applies the
 * unban on the platform when `lift` is true.
 */
export async function prepareAppealUnban(
  db: Kysely<Database>,
  platform: Pick<Platform, 'getBan' | 'getGuild'>,
  u: { appeal: AppealRecord; at: () => Date },
): Promise<AppealUnban> {
  const { appeal } = u;
  const { guildId, number } = appeal;
  const operationId = `appeal/${guildId}/${number}`;
  const recorded = await findCaseByOperation(db, operationId);
  if (recorded) return { lift: true, caseNumber: recorded.number, events: [] };
  if (!(await platform.getBan(guildId, appeal.userId))) return { lift: false, caseNumber: null, events: [] };
  if (!(await isFeatureEnabled(db, guildId, 'moderation'))) return { lift: true, caseNumber: null, events: [] };
  const { key, actsFor } = await keyActor(db, guildId, appeal.decidedWithApiKeyId);
  // A dashboard decision (decidedBy, no key) records the console user as the case's moderator and actor.
  const moderatorId = appeal.decidedBy ?? actsFor ?? (await platform.getGuild(guildId))!.botUserId;
  const actor: AuditActor = appeal.decidedBy
    ? { type: 'console_user', userId: appeal.decidedBy }
    : key
      ? { type: 'api_key', apiKeyId: key.id, userId: key.createdBy }
      : { type: 'system' };
  const at = u.at();
  const { number: created, event } = await db.transaction().execute(async (trx) => {
    const result = await recordCase(
      trx,
      {
        guildId,
        action: 'unban',
        userId: appeal.userId,
        userTag: appeal.userTag,
        moderatorId,
        reason: `Ban appeal #${number} approved${appeal.reason ? `: ${appeal.reason}` : ''}`,
        durationSeconds: null,
        evidence: [],
        source: appeal.decidedBy ? 'console' : 'api',
        active: false,
        expiresAt: null,
        dmStatus: null,
        apiKey: key ? { id: key.id, name: key.name } : null,
        operationId,
        createdAt: at,
      },
      actor,
    );
    for (const tempban of await listActiveCaseNumbers(trx, guildId, appeal.userId, ['tempban'])) {
      await resolveCase(trx, { guildId, caseNumber: tempban, how: 'revoked', actorId: moderatorId, data: { byCase: result.number }, at });
    }
    return result;
  });
  return { lift: true, caseNumber: created, events: event ? [event] : [] };
}
