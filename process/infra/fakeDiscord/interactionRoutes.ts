import { autocompleteRefusal } from './autocompleteRules.js';
import { discordError, type FakeAnswer } from './faults.js';
import type { FakeRoute } from './fakeRoute.js';
import type { FakeDiscordState } from './state.js';

// Discord's interaction endpoints: the callback that acknowledges a press or a form (once per interaction) and the
// edit of the original response after a deferral. Both are authorised by the interaction's token, not the bot's,
// and the token expires as Discord's does: the callback within 3 s of the interaction, edits within 15 minutes.

/** Paths that need no bot token. */
export const TOKENLESS_PATHS = /^\/(interactions|webhooks)\//;

/** Discord: "you must send an initial response within 3 seconds of receiving the event". */
export const CALLBACK_WINDOW_MS = 3_000;
/** Discord: "Interaction tokens are valid for 15 minutes". */
export const TOKEN_LIFETIME_MS = 15 * 60_000;

const callbacked = (answers: { kind: string; id: string }[], id: string) => answers.some((a) => a.kind === 'callback' && a.id === id);
const ageOf = (state: FakeDiscordState, token: string) => {
  const issued = state.interactions.get(token);
  return issued && state.now() - issued.issuedAt;
};

export const INTERACTION_ROUTES: FakeRoute[] = [
  {
    method: 'POST',
    pattern: '/interactions/:interaction/:token/callback',
    handler: (state, req): FakeAnswer => {
      const id = req.params.interaction!;
      const token = req.params.token!;
      if (callbacked(state.interactionAnswers, id)) return discordError(400, 40060, 'Interaction has already been acknowledged.');
      // An interaction the gateway never sent, or one answered too late: Discord no longer knows it.
      const age = ageOf(state, token);
      const issued = state.interactions.get(token);
      if (age === undefined || issued!.id !== id || age > CALLBACK_WINDOW_MS) return discordError(404, 10062, 'Unknown interaction');
      const refused = autocompleteRefusal(issued!, req.body);
      if (refused) return refused;
      state.interactionAnswers.push({ kind: 'callback', id, token, body: req.body, at: state.now() });
      return { status: 204 };
    },
  },
  {
    method: 'PATCH',
    pattern: '/webhooks/:application/:token/messages/@original',
    handler: (state, req): FakeAnswer => {
      const token = req.params.token!;
      // Past its 15 minutes the token is refused as any unknown webhook token is.
      const age = ageOf(state, token);
      if (age === undefined || age > TOKEN_LIFETIME_MS) return discordError(401, 50027, 'Invalid Webhook Token');
      // The original response exists once the interaction was answered (a deferral included).
      if (!state.interactionAnswers.some((a) => a.kind === 'callback' && a.token === token)) return discordError(404, 10008, 'Unknown Message');
      state.interactionAnswers.push({ kind: 'edit', id: req.params.application!, token, body: req.body, at: state.now() });
      return { status: 200, body: { id: token.slice(0, 19), content: req.body?.content ?? '' } };
    },
  },
];
