import { SNOWFLAKE_PATTERN } from '../core/snowflake.js';

// The bot's ban appeal form: a banned user is outside the server, so the button and the dialog (in a DM with the
// bot, or on the appeal message the staff share) name the server in their custom_ids. Written and read here only.

export interface AppealQuestion {
  id: string;
  type: 'paragraph' | 'short';
  label: string;
  required: boolean;
}

/** The questions every appeal asks (the product has no per-server appeal form yet). */
export const APPEAL_QUESTIONS: readonly AppealQuestion[] = [
  { id: 'why', type: 'paragraph', label: 'Why should we lift your ban?', required: true },
  { id: 'context', type: 'paragraph', label: 'Anything else the staff should know?', required: false },
];

export const appealOpenButtonId = (guildId: string) => `appeal:open:${guildId}`;
export const appealFormDialogId = (guildId: string) => `appeal:form:${guildId}`;

const guildIn = (prefix: string, customId: string) => {
  if (!customId.startsWith(prefix)) return undefined;
  const guildId = customId.slice(prefix.length);
  return SNOWFLAKE_PATTERN.test(guildId) ? guildId : undefined;
};

export const parseAppealOpenButton = (customId: string) => guildIn('appeal:open:', customId);
export const parseAppealFormDialog = (customId: string) => guildIn('appeal:form:', customId);

/** The dialog's values as the appeal's answers, in the form's order (blank optional answers left out). */
export function appealAnswers(values: Map<string, string>): Array<{ id: string; type: string; label: string; value: string }> {
  return APPEAL_QUESTIONS.filter((q) => (values.get(q.id) ?? '').trim() !== '').map((q) => ({ id: q.id, type: q.type, label: q.label, value: values.get(q.id)! }));
}
