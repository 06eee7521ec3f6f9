import type { Kysely } from 'kysely';
import { findForm } from '../../db/applications/forms.js';
import { findReviewMessage, storeReviewMessage, type ReviewMessageRef } from '../../db/applications/reviewMessages.js';
import { findSubmission } from '../../db/applications/submissions.js';
import type { Database } from '../../db/schema.js';
import type { Platform } from '../core/platform.js';
import { applicationReviewMessage } from './applicationMessages.js';

/** One review message per submission: a retried post returns the first one. */
export const reviewMessageKey = (guildId: string, number: number) => `application-review-message/${guildId}/${number}`;

/**
 * Posts the submission's review message in its form's review channel, once, after the submission committed
 * (a platform call has no place in its transaction), and stores where it is, so the decision can edit it.
 * Undefined when the form has no review channel (or is gone). The decision workflow calls it too, for a
 * submission whose message was never posted (the bot stopped between the commit and the post).
 */
export async function postReviewMessage(
  deps: { db: Kysely<Database>; platform: Platform },
  guildId: string,
  number: number,
): Promise<ReviewMessageRef | undefined> {
  const stored = await findReviewMessage(deps.db, guildId, number);
  if (stored) return stored;
  const submission = await findSubmission(deps.db, guildId, number);
  const form = submission?.formId ? await findForm(deps.db, guildId, submission.formId) : undefined;
  if (!submission || !form?.reviewChannelId) return undefined;
  const content = applicationReviewMessage(submission);
  const messageId = await deps.platform.postMessage(guildId, form.reviewChannelId, content, reviewMessageKey(guildId, number));
  await storeReviewMessage(deps.db, guildId, number, { channelId: form.reviewChannelId, messageId });
  return (await findReviewMessage(deps.db, guildId, number))!;
}
