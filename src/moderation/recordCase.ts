import type { Kysely } from 'kysely';
import type { AuditActor } from '../../db/shared/audit.js';
import { writeAudit } from '../../db/shared/audit.js';
import { recordEvent } from '../events/outbox.js';
import { insertCase, type NewCase } from '../../db/moderation/cases.js';
import type { Database } from '../../db/schema.js';
import type { OutboxEvent } from '../events/eventTypes.js';

/**
 * Records a case with its audit row and its `moderation.caseCreated` event, in the caller's transaction
 * (DESIGN invariant 1). A case already recorded for the operation is returned as it is, without a second
 * event, so a retried step records it once.
 */
export async function recordCase(
  trx: Kysely<Database>,
  c: NewCase,
  actor: AuditActor,
): Promise<{ number: number; event: OutboxEvent | undefined }> {
  const { number, created } = await insertCase(trx, c);
  if (!created) return { number, event: undefined };
  await writeAudit(trx, {
    guildId: c.guildId,
    actor,
    action: `moderation.${c.action}`,
    target: { type: 'member', id: c.userId },
    data: { caseNumber: number, source: c.source, reason: c.reason, durationSeconds: c.durationSeconds },
  });
  const event = await recordEvent(trx, {
    type: 'moderation.caseCreated',
    guildId: c.guildId,
    createdAt: c.createdAt,
    data: {
      caseNumber: number,
      action: c.action,
      userId: c.userId,
      moderatorId: c.moderatorId,
      reason: c.reason,
      durationSeconds: c.durationSeconds,
      source: c.source,
      expiresAt: c.expiresAt?.toISOString() ?? null,
      createdAt: c.createdAt.toISOString(),
    },
  });
  return { number, event };
}
