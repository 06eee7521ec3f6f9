import { claimInteraction } from '../../../db/platform/interactions.js';
import { APPEAL_QUESTIONS, appealAnswers, appealFormDialogId } from '../../../src/appeals/appealForm.js';
import { AppealRefusal, submitAppeal } from '../../../src/appeals/submitAppeal.js';
import type { InteractionRef } from '../../../src/platform/discord/interactionReplies.js';
import type { BotDeps } from '../handler.js';

export interface AppealFiling {
  interactionId: string;
  guildId: string;
  userId: string;
  values: Map<string, string>;
}

const REFUSED: Record<AppealRefusal['code'], string> = {
  GUILD_NOT_FOUND: 'This server does not take ban appeals.',
  FEATURE_DISABLED: 'This server does not take ban appeals.',
  NOT_BANNED: 'You are not banned from this server: there is nothing to appeal.',
  APPEAL_ALREADY_OPEN: 'You already have an appeal waiting for a decision.',
  REAPPEAL_COOLDOWN: 'Your last appeal was rejected recently; you cannot appeal again yet.',
};

/** The appeal button: the appeal form's dialog (the first and only answer: a dialog cannot be deferred). */
export function showAppealForm(deps: BotDeps, ref: InteractionRef, guildId: string): Promise<void> {
  return deps.replies.showForm(ref, {
    id: appealFormDialogId(guildId),
    title: 'Ban appeal',
    fields: APPEAL_QUESTIONS.map((q) => ({ id: q.id, label: q.label, long: q.type === 'paragraph', required: q.required })),
  });
}

/** The appeal dialog submitted: the appeal `simulate appeal-file` files (the ban read from Discord now). */
export async function fileFromForm(deps: BotDeps, f: AppealFiling): Promise<string | null> {
  const at = deps.clock.now();
  const ban = await deps.platform.getBan(f.guildId, f.userId);
  try {
    const filed = await deps.db.transaction().execute(async (trx) => {
      if (!(await claimInteraction(trx, f.interactionId, f.guildId, at))) return null;
      return submitAppeal(trx, { guildId: f.guildId, userId: f.userId, ban, answers: appealAnswers(f.values), at, actor: { type: 'system' } });
    });
    return filed && `Your appeal #${filed.appeal.number} was filed. The staff's decision will reach you in a direct message.`;
  } catch (err) {
    if (err instanceof AppealRefusal) return REFUSED[err.code];
    throw err;
  }
}
