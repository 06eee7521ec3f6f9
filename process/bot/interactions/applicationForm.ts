import { findForm } from '../../../db/applications/forms.js';
import { claimInteraction } from '../../../db/platform/interactions.js';
import { MAX_DIALOG_QUESTIONS, applicationFormDialogId } from '../../../src/applications/applicationButtons.js';
import { ApplicationRefusal } from '../../../src/applications/applicationRefusal.js';
import { postReviewMessage } from '../../../src/applications/postReviewMessage.js';
import { submitApplication } from '../../../src/applications/submitApplication.js';
import type { InteractionRef } from '../../../src/platform/discord/interactionReplies.js';
import type { BotDeps } from '../handler.js';
import type { ButtonPress } from './giveawayEnter.js';

export interface FormSubmission extends ButtonPress {
  /** The dialog's inputs by their custom_id (the question ids). */
  values: Map<string, string>;
}

/**
 * The apply button: the form's dialog, which must be the interaction's first and only answer (Discord cannot defer
 * a dialog), or a clear answer when the form cannot be filled in a dialog.
 */
export async function showApplicationForm(deps: BotDeps, ref: InteractionRef, guildId: string, formId: number): Promise<void> {
  const form = await findForm(deps.db, guildId, formId);
  if (!form) return deps.replies.reply(ref, 'This application form no longer exists.');
  if (form.questions.length > MAX_DIALOG_QUESTIONS) {
    return deps.replies.reply(ref, `This form has ${form.questions.length} questions, more than a Discord dialog holds (${MAX_DIALOG_QUESTIONS}); ask the staff for another way to apply.`);
  }
  await deps.replies.showForm(ref, {
    id: applicationFormDialogId(form.id),
    title: form.title,
    fields: form.questions.map((q) => ({ id: q.id, label: q.label, long: q.type === 'paragraph', required: q.required })),
  });
}

/** The dialog submitted: the submission `simulate application-submit` records, then its review message. */
export async function submitFromForm(deps: BotDeps, s: FormSubmission, formId: number): Promise<string | null> {
  const at = deps.clock.now();
  const answers = [...s.values].filter(([, text]) => text.trim() !== '').map(([id, text]) => ({ id, text }));
  try {
    const submitted = await deps.db.transaction().execute(async (trx) => {
      if (!(await claimInteraction(trx, s.interactionId, s.guildId, at))) return null;
      return submitApplication(trx, { guildId: s.guildId, formId, userId: s.userId, member: s.member, answers, at, actor: { type: 'system' } });
    });
    if (!submitted) return null;
    const { submission } = submitted;
    // The submission stands whatever happens to its review message: an unreachable or refusing platform leaves it
    // to the decision, which posts it first (as after `simulate application-submit`).
    await postReviewMessage({ db: deps.db, platform: deps.platform }, s.guildId, submission.number).catch((err: unknown) =>
      deps.logger.warn({ err, guildId: s.guildId, number: submission.number }, 'review message not posted'),
    );
    return `Your application #${submission.number} to "${submission.formTitle ?? 'the form'}" was submitted. You will hear from the staff.`;
  } catch (err) {
    if (err instanceof ApplicationRefusal) return `Your application was not submitted: ${err.message}`;
    throw err;
  }
}
