import { discordError, type FakeAnswer } from './faults.js';

// What Discord checks in a message's content, embeds and allowed_mentions before it posts or edits one
// (https://docs.discord.com/developers/resources/message#create-message, #embed-object-embed-limits,
// #allowed-mentions-object), refused as Discord does: 400 with 50035 Invalid Form Body and the `errors` object
// naming each bad field, or 50006 for a message with nothing in it.

type FieldErrors = Record<string, unknown>;

const SNOWFLAKE = /^\d{17,20}$/;
const MENTION_TYPES = ['roles', 'users', 'everyone'];

const error = (code: string, message: string) => ({ _errors: [{ code, message }] });
const tooLong = (max: number) => error('BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
const required = () => error('BASE_TYPE_REQUIRED', 'This field is required');

/** Sets `errors.a.b.c` from the path ['a', 'b', 'c'], as Discord nests them (array indexes as keys). */
function put(errors: FieldErrors, path: Array<string | number>, value: unknown) {
  let at = errors;
  for (const key of path.slice(0, -1)) at = (at[key] ??= {}) as FieldErrors;
  at[path.at(-1)!] = value;
}

function checkText(errors: FieldErrors, path: Array<string | number>, value: unknown, max: number, isRequired = false) {
  if (value === undefined || value === null) {
    if (isRequired) put(errors, path, required());
    return 0;
  }
  if (typeof value !== 'string') return put(errors, path, error('BASE_TYPE_BAD_TYPE', 'Must be a string.')), 0;
  if (isRequired && value.length === 0) return put(errors, path, required()), 0;
  if (value.length > max) put(errors, path, tooLong(max));
  return value.length;
}

function checkUrl(errors: FieldErrors, path: Array<string | number>, media: unknown) {
  if (media === undefined) return;
  const url = (media as { url?: unknown } | null)?.url;
  if (typeof url !== 'string') return put(errors, [...path, 'url'], required());
  if (!/^https?:\/\//.test(url)) put(errors, [...path, 'url'], error('URL_TYPE_INVALID_SCHEME', `Scheme "${url.split(':')[0]}" is not supported. Scheme must be one of ('http', 'https').`));
}

/** One embed's fields; returns what it counts toward the 6,000 of the message. */
function checkEmbed(errors: FieldErrors, i: number, e: Record<string, unknown>): number {
  const at = (...path: Array<string | number>) => ['embeds', i, ...path];
  let chars = checkText(errors, at('title'), e.title, 256) + checkText(errors, at('description'), e.description, 4096);
  if (e.color !== undefined && (!Number.isInteger(e.color) || (e.color as number) < 0 || (e.color as number) > 0xffffff)) {
    put(errors, at('color'), error('NUMBER_TYPE_MAX', 'int value should be less than or equal to 16777215.'));
  }
  if (e.timestamp !== undefined && (typeof e.timestamp !== 'string' || Number.isNaN(Date.parse(e.timestamp)))) {
    put(errors, at('timestamp'), error('DATE_TYPE_PARSE', 'Could not parse the timestamp. Should be ISO8601.'));
  }
  checkUrl(errors, at('thumbnail'), e.thumbnail);
  checkUrl(errors, at('image'), e.image);
  if (e.footer !== undefined) chars += checkText(errors, at('footer', 'text'), (e.footer as { text?: unknown } | null)?.text, 2048, true);
  const fields = e.fields as Array<Record<string, unknown>> | undefined;
  if (fields !== undefined) {
    if (!Array.isArray(fields)) put(errors, at('fields'), error('BASE_TYPE_BAD_TYPE', 'Must be an array.'));
    else if (fields.length > 25) put(errors, at('fields'), tooLong(25));
    else fields.forEach((f, j) => (chars += checkText(errors, at('fields', j, 'name'), f?.name, 256, true) + checkText(errors, at('fields', j, 'value'), f?.value, 1024, true)));
  }
  return chars;
}

function checkEmbeds(errors: FieldErrors, embeds: unknown) {
  if (embeds === undefined) return;
  if (!Array.isArray(embeds)) return put(errors, ['embeds'], error('BASE_TYPE_BAD_TYPE', 'Must be an array.'));
  if (embeds.length > 10) return put(errors, ['embeds'], tooLong(10));
  let total = 0;
  embeds.forEach((e, i) => {
    total += checkEmbed(errors, i, (e ?? {}) as Record<string, unknown>);
    if (total > 6000) put(errors, ['embeds', i], error('MAX_EMBED_SIZE_EXCEEDED', 'Embed size exceeds maximum size of 6000'));
  });
}

function checkIds(errors: FieldErrors, key: 'users' | 'roles', ids: unknown) {
  if (ids === undefined) return;
  if (!Array.isArray(ids)) return put(errors, ['allowed_mentions', key], error('BASE_TYPE_BAD_TYPE', 'Must be an array.'));
  if (ids.length > 100) return put(errors, ['allowed_mentions', key], tooLong(100));
  ids.forEach((id, i) => {
    if (typeof id !== 'string' || !SNOWFLAKE.test(id)) put(errors, ['allowed_mentions', key, i], error('NUMBER_TYPE_COERCE', `Value "${String(id)}" is not snowflake.`));
  });
}

function checkAllowedMentions(errors: FieldErrors, allowed: unknown) {
  if (allowed === undefined) return;
  if (typeof allowed !== 'object' || allowed === null || Array.isArray(allowed)) return put(errors, ['allowed_mentions'], error('DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType'));
  const a = allowed as { parse?: unknown; users?: unknown; roles?: unknown; replied_user?: unknown };
  if (a.parse !== undefined) {
    if (!Array.isArray(a.parse)) put(errors, ['allowed_mentions', 'parse'], error('BASE_TYPE_BAD_TYPE', 'Must be an array.'));
    else a.parse.forEach((p, i) => !MENTION_TYPES.includes(p as string) && put(errors, ['allowed_mentions', 'parse', i], error('BASE_TYPE_CHOICES', "Value must be one of ('roles', 'users', 'everyone').")));
  }
  checkIds(errors, 'users', a.users);
  checkIds(errors, 'roles', a.roles);
  if (a.replied_user !== undefined && typeof a.replied_user !== 'boolean') put(errors, ['allowed_mentions', 'replied_user'], error('BASE_TYPE_BAD_TYPE', 'Must be a boolean.'));
  for (const key of ['users', 'roles'] as const) {
    if (Array.isArray(a.parse) && a.parse.includes(key) && a[key] !== undefined) {
      put(errors, ['allowed_mentions', '_errors'], [{ code: 'MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE', message: `parse:["${key}"] and ${key}: [ids...] are mutually exclusive.` }]);
    }
  }
}

/**
 * The refusal Discord gives a message body, or undefined when it would take it. An edit (`existing`: the message as
 * it is) may leave out what it does not change, but may not leave the message with nothing in it either.
 */
export function messageBodyRefusal(body: Record<string, unknown> | null, existing?: { content: string; embeds?: unknown[]; components?: unknown[] }): FakeAnswer | undefined {
  const b = body ?? {};
  const errors: FieldErrors = {};
  if (b.content !== undefined && b.content !== null) checkText(errors, ['content'], b.content, 2000);
  checkEmbeds(errors, b.embeds);
  checkAllowedMentions(errors, b.allowed_mentions);
  if (Object.keys(errors).length > 0) return { status: 400, body: { message: 'Invalid Form Body', code: 50035, errors } };
  const content = typeof b.content === 'string' ? b.content : existing?.content ?? '';
  const embeds = Array.isArray(b.embeds) ? b.embeds : existing?.embeds ?? [];
  const components = Array.isArray(b.components) ? b.components : existing?.components ?? [];
  if (content.length === 0 && embeds.length === 0 && components.length === 0) return discordError(400, 50006, 'Cannot send an empty message');
  return undefined;
}

const ids = (content: string, pattern: RegExp) => [...new Set([...content.matchAll(pattern)].map((m) => m[1]!))];

/**
 * Who a message's content pings, as Discord works it out: the mentions in the content that allowed_mentions lets
 * through (without allowed_mentions, all of them), a role only when anyone may mention it or the bot may mention
 * everyone. The message object's `mentions`, `mention_roles` and `mention_everyone`.
 */
export function pingsOf(
  content: string,
  allowed: { parse?: string[]; users?: string[]; roles?: string[] } | undefined,
  role: { mentionable(roleId: string): boolean; botMayMentionEveryone: boolean },
): { userIds: string[]; roleIds: string[]; everyone: boolean } {
  const parse = allowed ? (allowed.parse ?? []) : MENTION_TYPES;
  const users = ids(content, /<@!?(\d{17,20})>/g).filter((id) => parse.includes('users') || (allowed?.users ?? []).includes(id));
  const roles = ids(content, /<@&(\d{17,20})>/g)
    .filter((id) => parse.includes('roles') || (allowed?.roles ?? []).includes(id))
    .filter((id) => role.botMayMentionEveryone || role.mentionable(id));
  const everyone = /@(everyone|here)/.test(content) && parse.includes('everyone') && role.botMayMentionEveryone;
  return { userIds: users, roleIds: roles, everyone };
}
