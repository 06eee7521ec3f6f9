import type { Kysely } from 'kysely';
import { listUserAppeals, lockUserAppeals, type AppealAnswer } from '../../db/appeals/appeals.js';
import { findGuild } from '../../db/guild/guilds.js';
import { findLatestBanCase } from '../../db/moderation/cases.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { appealRefusal } from './appealEligibility.js';
import { fileAppeal } from './fileAppeal.js';
import { Refusal } from '../core/refusal.js';

export class AppealRefusal extends Refusal<'GUILD_NOT_FOUND' | 'FEATURE_DISABLED' | 'NOT_BANNED' | 'APPEAL_ALREADY_OPEN' | 'REAPPEAL_COOLDOWN'> {}

export interface AppealSubmission {
  guildId: string;
  userId: string;
  /** The user's ban as the platform has it now; undefined when they are not banned. */
  ban: { reason: string | null } | undefined;
  answers: AppealAnswer[];
  at: Date;
  actor: AuditActor;
}

export interface SubmittedAppeal {
  number: number;
  userId: string;
  userTag: string | null;
  status: 'open';
  banCaseNumber: number | null;
  banReason: string | null;
  answers: AppealAnswer[];
  createdAt: Date;
}

/**
 * A banned user files a ban appeal through the bot's appeal form, in the caller's transaction: the rules of
 * appealEligibility.ts (checked under a per-user lock, so two filings at once make one appeal), the appeal
 * tied to the user's latest ban case, its audit row and `appeals.submitted`.
 */
export async function submitAppeal(trx: Kysely<Database>, s: AppealSubmission): Promise<{ appeal: SubmittedAppeal; events: OutboxEvent[] }> {
  const guild = await findGuild(trx, s.guildId);
  if (!guild) throw new AppealRefusal('GUILD_NOT_FOUND', `Guild ${s.guildId} does not exist.`);
  if (!guild.features.includes('appeals')) throw new AppealRefusal('FEATURE_DISABLED', `The Ban appeals feature is disabled in guild ${s.guildId}.`);
  await lockUserAppeals(trx, s.guildId, s.userId);
  const refusal = appealRefusal({ banned: s.ban !== undefined, appeals: await listUserAppeals(trx, s.guildId, s.userId), now: s.at });
  if (refusal?.code === 'NOT_BANNED') throw new AppealRefusal('NOT_BANNED', `User ${s.userId} is not banned from guild ${s.guildId}; only banned users appeal.`);
  if (refusal?.code === 'APPEAL_ALREADY_OPEN') {
    throw new AppealRefusal('APPEAL_ALREADY_OPEN', `User ${s.userId} already has appeal ${refusal.number} waiting for a decision.`);
  }
  if (refusal?.code === 'REAPPEAL_COOLDOWN') {
    throw new AppealRefusal('REAPPEAL_COOLDOWN', `User ${s.userId} may appeal again from ${refusal.until.toISOString()} (re-appeal cooldown after a rejection).`);
  }
  const banCase = await findLatestBanCase(trx, s.guildId, s.userId);
  const filed = {
    userId: s.userId,
    userTag: banCase?.userTag ?? null,
    banCaseNumber: banCase?.number ?? null,
    banReason: banCase?.reason ?? s.ban?.reason ?? null,
    answers: s.answers,
  };
  const { number, event } = await fileAppeal(trx, { guildId: s.guildId, ...filed, at: s.at });
  const appeal: SubmittedAppeal = { number, ...filed, status: 'open', createdAt: s.at };
  await writeAudit(trx, {
    guildId: s.guildId,
    actor: s.actor,
    action: 'appeals.file',
    target: { type: 'appeal', id: String(number) },
    data: { userId: s.userId, banCaseNumber: appeal.banCaseNumber },
  });
  return { appeal, events: [event] };
}
