import type { Kysely } from 'kysely';
import { findForm } from '../../db/applications/forms.js';
import { listUserFormSubmissions, lockUserSubmissions, type ApplicantSnapshot, type SubmissionRecord } from '../../db/applications/submissions.js';
import { findGuild } from '../../db/guild/guilds.js';
import { findLevelMember } from '../../db/levels/members.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import type { PlatformMember } from '../core/platform.js';
import { snowflakeCreatedAt } from '../core/snowflake.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { levelFromXp } from '../levels/curve.js';
import { ApplicationRefusal } from './applicationRefusal.js';
import { fileSubmission } from './fileSubmission.js';
import { answersFor, submitRefusal } from './submissionRules.js';

export interface ApplicationEntry {
  guildId: string;
  formId: number;
  userId: string;
  /** The applicant as the platform has them now; undefined when they are not a member (they can still apply). */
  member: PlatformMember | undefined;
  answers: Array<{ id: string; text: string }>;
  at: Date;
  actor: AuditActor;
}

/**
 * A user submits an application form through the bot, in the caller's transaction: the rules of
 * submissionRules.ts (under a per-user lock, so two submissions at once make one), the applicant snapshot
 * taken now (account age, join date, roles, level with Levels on), the audit row and `applications.submitted`.
 */
export async function submitApplication(trx: Kysely<Database>, e: ApplicationEntry): Promise<{ submission: SubmissionRecord; events: OutboxEvent[] }> {
  const guild = await findGuild(trx, e.guildId);
  if (!guild) throw new ApplicationRefusal('GUILD_NOT_FOUND', `Guild ${e.guildId} does not exist.`);
  if (!guild.features.includes('applications')) throw new ApplicationRefusal('FEATURE_DISABLED', `The Applications feature is disabled in guild ${e.guildId}.`);
  const form = await findForm(trx, e.guildId, e.formId);
  if (!form) throw new ApplicationRefusal('FORM_NOT_FOUND', `Guild ${e.guildId} has no application form ${e.formId}.`);
  await lockUserSubmissions(trx, e.guildId, e.userId);
  const refusal = submitRefusal(form, await listUserFormSubmissions(trx, e.guildId, e.userId, form.id), e.at);
  if (refusal) throw new ApplicationRefusal(refusal.code, refusal.message);
  const answers = answersFor(form.questions, e.answers);
  if (!Array.isArray(answers)) throw new ApplicationRefusal(answers.code, answers.message);

  const levels = guild.features.includes('levels') ? await findLevelMember(trx, e.guildId, e.userId) : undefined;
  const applicant: ApplicantSnapshot = {
    accountCreatedAt: snowflakeCreatedAt(e.userId).toISOString(),
    joinedAt: e.member?.joinedAt?.toISOString() ?? null,
    roleIds: e.member?.roleIds ?? [],
    level: levels ? levelFromXp(levels.xp).level : null,
  };
  const { number, event } = await fileSubmission(trx, { guildId: e.guildId, form, userId: e.userId, answers, applicant, at: e.at });
  await writeAudit(trx, {
    guildId: e.guildId,
    actor: e.actor,
    action: 'applications.submit',
    target: { type: 'application', id: String(number) },
    data: { userId: e.userId, formId: form.id },
  });
  const submission = (await listUserFormSubmissions(trx, e.guildId, e.userId, form.id))[0]!;
  return { submission, events: [event] };
}
