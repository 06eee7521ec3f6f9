import { discordError, type FakeAnswer } from './faults.js';
import type { FakeRoute } from './routes.js';

// Discord's interaction endpoints: the callback that acknowledges a press or a form (once per interaction) and the
// edit of the original response after a deferral. Both are authorised by the interaction's token, not the bot's.

/** Paths that need no bot token. */
export const TOKENLESS_PATHS = /^\/(interactions|webhooks)\//;

const callbacked = (answers: { kind: string; id: string }[], id: string) => answers.some((a) => a.kind === 'callback' && a.id === id);

export const INTERACTION_ROUTES: FakeRoute[] = [
  {
    method: 'POST',
    pattern: '/interactions/:interaction/:token/callback',
    handler: (state, req): FakeAnswer => {
      const id = req.params.interaction!;
      if (callbacked(state.interactionAnswers, id)) return discordError(400, 40060, 'Interaction has already been acknowledged.');
      state.interactionAnswers.push({ kind: 'callback', id, token: req.params.token!, body: req.body, at: Date.now() });
      return { status: 204 };
    },
  },
  {
    method: 'PATCH',
    pattern: '/webhooks/:application/:token/messages/@original',
    handler: (state, req): FakeAnswer => {
      const token = req.params.token!;
      // The original response exists once the interaction was answered (a deferral included).
      if (!state.interactionAnswers.some((a) => a.kind === 'callback' && a.token === token)) return discordError(404, 10008, 'Unknown Message');
      state.interactionAnswers.push({ kind: 'edit', id: req.params.application!, token, body: req.body, at: Date.now() });
      return { status: 200, body: { id: token.slice(0, 19), content: req.body?.content ?? '' } };
    },
  },
];
