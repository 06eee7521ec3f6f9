import type { FormEdit, FormQuestion } from '../../../db/applications/forms.js';
import { QUESTION_TYPES } from '../../../src/applications/contract.js';
import type { ServerDirectory } from '../../../src/console/serverDirectory.js';
import { FormRejection } from '../formFlow.js';
import { FORM_FIELDS, MAX_QUESTIONS, questionField } from '../views/applicationFormPages.js';
import type { FieldError } from '../views/formParts.js';

const QUESTION_ID = /^[A-Za-z0-9_-]{1,40}$/;
// Discord's limit for a text input's label in a dialog: a longer one would be refused when a member applies.
const MAX_LABEL = 45;

/** The question rows in order: a row without a label is none; a new row gets an id no other question has. */
function questionsOf(form: URLSearchParams, errors: FieldError[]): FormQuestion[] {
  const rows = Array.from({ length: MAX_QUESTIONS }, (_, i) => ({ i, label: (form.get(questionField(i, 'label')) ?? '').trim(), id: form.get(questionField(i, 'id')) ?? '' })).filter((r) => r.label !== '');
  const taken = new Set(rows.map((r) => r.id).filter((id) => QUESTION_ID.test(id)));
  let next = 1;
  const freshId = () => {
    while (taken.has(`q${next}`)) next += 1;
    taken.add(`q${next}`);
    return `q${next}`;
  };
  const seen = new Set<string>();
  return rows.map(({ i, label, id }) => {
    const type = form.get(questionField(i, 'type')) ?? '';
    if (label.length > MAX_LABEL) errors.push({ field: questionField(i, 'label'), message: `Question ${i + 1} has ${label.length} characters; Discord shows at most ${MAX_LABEL}.` });
    if (!(QUESTION_TYPES as readonly string[]).includes(type)) errors.push({ field: questionField(i, 'type'), message: `Pick the answer of question ${i + 1}.` });
    const kept = QUESTION_ID.test(id) && !seen.has(id) ? id : freshId();
    seen.add(kept);
    return { id: kept, type, label, required: form.get(questionField(i, 'required')) === 'on' };
  });
}

/** The form editor's input as the form's new settings, or a 400 INVALID_INPUT naming each field to fix. */
export function formEditOf(form: URLSearchParams, directory: ServerDirectory): FormEdit {
  const errors: FieldError[] = [];
  const title = (form.get(FORM_FIELDS.title) ?? '').trim();
  if (title === '' || title.length > 80) errors.push({ field: FORM_FIELDS.title, message: 'Give a title of 1 to 80 characters.' });
  const description = (form.get(FORM_FIELDS.description) ?? '').trim();
  if (description.length > 1000) errors.push({ field: FORM_FIELDS.description, message: 'Give a description of at most 1,000 characters.' });
  const questions = questionsOf(form, errors);
  if (questions.length === 0) errors.push({ field: FORM_FIELDS.questions, message: 'Give the form at least one question.' });
  const roleOf = (name: string) => {
    const ids = form.getAll(name);
    if (ids.some((id) => !directory.roles.some((r) => r.id === id && !r.managed))) errors.push({ field: name, message: 'Pick roles of this server.' });
    return ids;
  };
  const acceptRoleIds = roleOf(FORM_FIELDS.acceptRoles);
  const removeRoleIds = roleOf(FORM_FIELDS.removeRoles);
  if (acceptRoleIds.some((id) => removeRoleIds.includes(id))) errors.push({ field: FORM_FIELDS.removeRoles, message: 'A role cannot be both given and removed.' });
  const reviewChannelId = form.get(FORM_FIELDS.reviewChannel) || null;
  if (reviewChannelId && !directory.channels.some((c) => c.id === reviewChannelId && (c.type === 'text' || c.type === 'announcement'))) {
    errors.push({ field: FORM_FIELDS.reviewChannel, message: 'Pick a text channel of this server, or none.' });
  }
  if (errors.length > 0) throw new FormRejection(400, 'INVALID_INPUT', errors);
  return { title, description, open: form.get(FORM_FIELDS.open) === 'on', questions, acceptRoleIds, removeRoleIds, reviewChannelId };
}
