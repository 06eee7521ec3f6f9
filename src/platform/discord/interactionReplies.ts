import type { REST } from '@discordjs/rest';
import { InteractionResponseType, MessageFlags, Routes } from 'discord-api-types/v10';
import { clip, MESSAGE_LIMITS } from '../../core/messageLimits.js';
import { translateDiscordError } from './discordErrors.js';

/** An interaction as its answer needs it: the callback takes the id and token, later edits the application id. */
export interface InteractionRef {
  id: string;
  token: string;
  applicationId: string;
}

/** A form the platform shows in a dialog (Discord's modal, at most 5 text inputs). */
export interface FormDialog {
  id: string;
  title: string;
  fields: Array<{ id: string; label: string; long: boolean; required: boolean }>;
}

/**
 * Answers to interactions (button presses, form submissions) on Discord's interaction endpoints. The callback must
 * reach Discord within 3 s of the press, once; a deferral shows "thinking" and the answer then replaces the
 * original response. Every answer here is ephemeral: only the member who pressed sees it.
 */
export interface InteractionReplies {
  reply(i: InteractionRef, content: string): Promise<void>;
  defer(i: InteractionRef): Promise<void>;
  editOriginal(i: InteractionRef, content: string): Promise<void>;
  showForm(i: InteractionRef, form: FormDialog): Promise<void>;
  /** Suggestions for the command option being typed (autocomplete): the only answer, never deferred, at most 25. */
  autocomplete(i: InteractionRef, choices: Array<{ name: string; value: string }>): Promise<void>;
}

const EPHEMERAL = MessageFlags.Ephemeral;

/** An answer later than this is of no use: Discord's 3 s for the first answer will have passed. */
const ANSWER_DEADLINE_MS = 2_500;

/**
 * `rest` is the process's one client (discordRest.ts): a Cloudflare ban refuses the address, interaction endpoints
 * included, so they stop with the rest on its latch.
 */
export function createInteractionReplies(options: { rest: REST }): InteractionReplies {
  const { rest } = options;
  // Interaction endpoints are authorised by the interaction's token, not the bot's, and do not count against the
  // bot's global rate limit (https://discord.com/developers/docs/interactions/receiving-and-responding).
  const send = async (what: string, run: (signal: AbortSignal) => Promise<unknown>) => {
    try {
      await run(AbortSignal.timeout(ANSWER_DEADLINE_MS));
    } catch (err) {
      throw translateDiscordError(err, what);
    }
  };
  const callback = (i: InteractionRef, body: unknown) =>
    send('answering an interaction', (signal) => rest.post(Routes.interactionCallback(i.id, i.token), { body, auth: false, signal }));
  return {
    reply: (i, content) =>
      callback(i, { type: InteractionResponseType.ChannelMessageWithSource, data: { content: clip(content, MESSAGE_LIMITS.content), flags: EPHEMERAL, allowed_mentions: { parse: [] } } }),
    defer: (i) => callback(i, { type: InteractionResponseType.DeferredChannelMessageWithSource, data: { flags: EPHEMERAL } }),
    editOriginal: (i, content) =>
      send('editing an interaction answer', (signal) =>
        rest.patch(Routes.webhookMessage(i.applicationId, i.token, '@original'), {
          body: { content: clip(content, MESSAGE_LIMITS.content), allowed_mentions: { parse: [] } },
          auth: false,
          signal,
        }),
      ),
    autocomplete: (i, choices) => callback(i, { type: InteractionResponseType.ApplicationCommandAutocompleteResult, data: { choices } }),
    showForm: (i, form) =>
      callback(i, {
        type: InteractionResponseType.Modal,
        data: {
          custom_id: form.id,
          title: form.title.slice(0, 45),
          components: form.fields.slice(0, 5).map((f) => ({
            type: 1,
            components: [{ type: 4, custom_id: f.id, label: f.label.slice(0, 45), style: f.long ? 2 : 1, required: f.required }],
          })),
        },
      }),
  };
}
