import type { Kysely } from 'kysely';
import { insertForm, type FormRecord } from '../../db/applications/forms.js';
import { findGuild } from '../../db/guild/guilds.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { ApplicationRefusal } from './applicationRefusal.js';
import { QUESTION_TYPES } from './contract.js';

/** A new form as staff describe it; its id and place in the console order are given at creation. */
export type FormDraft = Omit<FormRecord, 'id' | 'position' | 'createdAt'> & { at: Date; actor: AuditActor };

/** Staff create an application form in the bot's console: at the end of the console order, with its audit row. */
export async function createForm(trx: Kysely<Database>, f: FormDraft): Promise<FormRecord> {
  if (!(await findGuild(trx, f.guildId))) throw new ApplicationRefusal('GUILD_NOT_FOUND', `Guild ${f.guildId} does not exist.`);
  const problem = formProblem(f);
  if (problem) throw new ApplicationRefusal('INVALID_FORM', problem);
  const { at, actor, ...draft } = f;
  const form = await insertForm(trx, { ...draft, createdAt: at });
  await writeAudit(trx, {
    guildId: f.guildId,
    actor,
    action: 'applications.formCreate',
    target: { type: 'application_form', id: String(form.id) },
    data: { title: f.title, questions: f.questions.length },
  });
  return form;
}

/** What is wrong with a form draft, if anything: 1 to 25 questions with unique ids and known types, a window that ends after it opens. */
export function formProblem(f: Pick<FormDraft, 'questions' | 'opensAt' | 'closesAt'>): string | undefined {
  if (f.questions.length < 1 || f.questions.length > 25) return 'A form has 1 to 25 questions.';
  if (new Set(f.questions.map((q) => q.id)).size !== f.questions.length) return 'Question ids must be unique.';
  const unknown = f.questions.find((q) => !(QUESTION_TYPES as readonly string[]).includes(q.type));
  if (unknown) return `Question ${unknown.id} has type "${unknown.type}"; types are ${QUESTION_TYPES.join(', ')}.`;
  if (f.opensAt && f.closesAt && f.closesAt <= f.opensAt) return 'closesAt must be after opensAt.';
  return undefined;
}
