import type { APIMessage } from 'discord-api-types/v10';
import type { FakeAnswer } from './faults.js';
import type { FakeDiscordState } from './state.js';

// Create Message's `nonce` and `enforce_nonce` (https://docs.discord.com/developers/resources/message#create-message):
// the nonce is an integer or a string of up to 25 characters; with enforce_nonce, "it will be checked for uniqueness
// in the past few minutes. If another message was created by the same author with the same nonce, that message will be
// returned and no new message will be created". Past the window, the same nonce makes a new message.

/**
 * "A few minutes", read at its shortest: a caller that relies on a longer window than this posts twice on Discord, and
 * must be seen to here.
 */
export const NONCE_WINDOW_MS = 2 * 60_000;
const MAX_NONCE = 25;

const invalid = (field: string, code: string, message: string): FakeAnswer => ({
  status: 400,
  body: { code: 50035, message: 'Invalid Form Body', errors: { [field]: { _errors: [{ code, message }] } } },
});

/** 50035 for a nonce or enforce_nonce Discord would not take; undefined when they are fine (or absent). */
export function nonceRefusal(body: Record<string, unknown> | null): FakeAnswer | undefined {
  const nonce = body?.nonce;
  if (typeof nonce === 'string' && nonce.length > MAX_NONCE) return invalid('nonce', 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_NONCE} or fewer in length.`);
  if (typeof nonce === 'number' && (!Number.isSafeInteger(nonce) || String(nonce).length > MAX_NONCE)) return invalid('nonce', 'NUMBER_TYPE_COERCE', `Value "${nonce}" is not int.`);
  if (nonce !== undefined && nonce !== null && typeof nonce !== 'string' && typeof nonce !== 'number') return invalid('nonce', 'BASE_TYPE_BAD_TYPE', 'Must be an integer or a string.');
  const enforce = body?.enforce_nonce;
  if (enforce !== undefined && enforce !== null && typeof enforce !== 'boolean') return invalid('enforce_nonce', 'BASE_TYPE_BAD_TYPE', 'Must be a boolean.');
  return undefined;
}

const keyOf = (channelId: string, authorId: string, nonce: string | number) => `${channelId}/${authorId}/${typeof nonce}:${nonce}`;

/** The message this author made in this channel with this nonce within the window, when enforce_nonce asks for it. */
export function earlierByNonce(state: FakeDiscordState, channelId: string, body: Record<string, unknown> | null): APIMessage | undefined {
  const nonce = body?.nonce as string | number | undefined | null;
  if (nonce === undefined || nonce === null || body?.enforce_nonce !== true) return undefined;
  const seen = state.nonces.get(keyOf(channelId, state.bot.id, nonce));
  if (!seen || state.now() - seen.at > NONCE_WINDOW_MS) return undefined;
  return state.messages.get(seen.messageId);
}

/** Remembers a new message's nonce (the latest message for a nonce is the one a later enforce_nonce finds). */
export function rememberNonce(state: FakeDiscordState, message: APIMessage): void {
  if (message.nonce === undefined || message.nonce === null) return;
  state.nonces.set(keyOf(message.channel_id, message.author.id, message.nonce), { messageId: message.id, at: state.now() });
}
