import { setTimeout as sleep } from 'node:timers/promises';
import type { InteractionRef } from '../../../src/platform/discord/interactionReplies.js';
import type { BotDeps } from '../handler.js';
import { interactionAgeMs } from './interactionWindow.js';

/** What the member sees when the work failed for a reason of ours (it is logged with the error). */
export const FAILED_ANSWER = 'Something went wrong on our side; please try again in a moment.';

/**
 * Acknowledges an interaction within Discord's 3 s and answers it from the work's outcome: directly when the work is
 * done within `answerWithinMs` of the interaction's creation (its snowflake time, not when the bot got to it), else a
 * deferral at that moment and the answer as an edit of the deferred response.
 * Work that answers null (the interaction was acted on before: a replayed dispatch) is not answered again.
 */
export async function answerInteraction(deps: BotDeps, ref: InteractionRef, work: () => Promise<string | null>): Promise<void> {
  const outcome = work().then(
    (content) => ({ content }),
    (err: unknown) => ({ err }),
  );
  const budgetMs = deps.answerWithinMs - Math.max(0, interactionAgeMs(ref.id, deps.clock));
  const ready = budgetMs > 0 ? await Promise.race([outcome, sleep(budgetMs).then(() => undefined)]) : undefined;
  if (ready) return finish(ready, (content) => deps.replies.reply(ref, content));
  await deps.replies.defer(ref);
  return finish(await outcome, (content) => deps.replies.editOriginal(ref, content));
}

async function finish(o: { content: string | null } | { err: unknown }, send: (content: string) => Promise<void>): Promise<void> {
  if ('err' in o) {
    await send(FAILED_ANSWER);
    throw o.err;
  }
  if (o.content !== null) await send(o.content);
}
