import type { Kysely } from 'kysely';
import { findForm, updateForm, type FormEdit, type FormRecord } from '../../db/applications/forms.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { ApplicationRefusal } from './applicationRefusal.js';
import { formProblem } from './createForm.js';

export interface FormChange {
  guildId: string;
  formId: number;
  edit: FormEdit;
  actor: AuditActor;
}

/**
 * Staff change an application form in place: its title, text, whether it takes applications, its questions (the same
 * rules as at creation), the roles an acceptance gives and removes, and the review channel. Submissions keep the
 * answers they were filed with. The audit row names what changed, before and after; saving it unchanged writes none.
 */
export async function changeForm(trx: Kysely<Database>, c: FormChange): Promise<FormRecord> {
  const before = await findForm(trx, c.guildId, c.formId);
  if (!before) throw new ApplicationRefusal('FORM_NOT_FOUND', `Form ${c.formId} is not a form of guild ${c.guildId}.`);
  const problem = formProblem({ questions: c.edit.questions, opensAt: before.opensAt, closesAt: before.closesAt });
  if (problem) throw new ApplicationRefusal('INVALID_FORM', problem);
  const changed = (Object.keys(c.edit) as Array<keyof FormEdit>).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(c.edit[k]));
  if (changed.length === 0) return before;
  const after = (await updateForm(trx, c.guildId, c.formId, c.edit))!;
  await writeAudit(trx, {
    guildId: c.guildId,
    actor: c.actor,
    action: 'applications.formChange',
    target: { type: 'application_form', id: String(c.formId) },
    data: { before: Object.fromEntries(changed.map((k) => [k, before[k]])), after: Object.fromEntries(changed.map((k) => [k, after[k]])) },
  });
  return after;
}
