import { ApplicationCommandOptionType as O, ApplicationCommandType as T } from 'discord-api-types/v10';

// Application command definitions checked as Discord checks them on create and bulk overwrite
// (https://docs.discord.com/developers/interactions/application-commands#application-command-object): what Discord
// refuses comes back as 50035 Invalid Form Body, its `errors` keyed by the path to the field, as Discord nests them.

/** Discord's `errors` tree: `{"0": {"options": {"1": {"name": {"_errors": [...]}}}}}`. */
export type FormErrors = { _errors?: Array<{ code: string; message: string }> } & { [key: string]: FormErrors | Array<{ code: string; message: string }> | undefined };

type Json = Record<string, unknown>;

/** CHAT_INPUT command and option names; letters with a lowercase variant must be lowercase. */
const NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;
const MAX_OPTIONS = 25;
const MAX_CHOICES = 25;
/** Name, description and choice names and values of a command and its options, together. */
const MAX_COMMAND_SIZE = 4_000;
/** Per scope (global, or one server): CHAT_INPUT, USER, MESSAGE. */
export const MAX_COMMANDS: Record<number, number> = { [T.ChatInput]: 100, [T.User]: 15, [T.Message]: 15 };
const WITH_CHOICES: number[] = [O.String, O.Integer, O.Number];
const NESTING: number[] = [O.Subcommand, O.SubcommandGroup];
const SAFE = Number.MAX_SAFE_INTEGER;

class Collector {
  readonly root: FormErrors = {};
  add(path: Array<string | number>, code: string, message: string) {
    let node = this.root;
    for (const key of path) node = (node[String(key)] ??= {}) as FormErrors;
    (node._errors ??= []).push({ code, message });
  }
}

const isText = (v: unknown): v is string => typeof v === 'string';
const length = (v: unknown) => (isText(v) ? [...v].length : -1);

function checkText(c: Collector, path: Array<string | number>, value: unknown, min: number, max: number) {
  const n = length(value);
  if (n === -1) return c.add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
  if (n < min || n > max) c.add(path, 'BASE_TYPE_BAD_LENGTH', `Must be between ${min} and ${max} in length.`);
}

function checkSlashName(c: Collector, path: Array<string | number>, name: unknown) {
  checkText(c, path, name, 1, 32);
  if (isText(name) && (!NAME.test(name) || name !== name.toLowerCase())) c.add(path, 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
}

function size(o: Json): number {
  const choices = (o.choices as Json[] | undefined) ?? [];
  const nested = (o.options as Json[] | undefined) ?? [];
  return (
    length(o.name) + Math.max(0, length(o.description)) +
    choices.reduce((n, ch) => n + length(ch.name) + String(ch.value).length, 0) +
    nested.reduce((n, x) => n + size(x), 0)
  );
}

function checkChoices(c: Collector, path: Array<string | number>, o: Json) {
  const choices = o.choices as Json[] | undefined;
  if (choices === undefined) return;
  if (!WITH_CHOICES.includes(o.type as number)) return c.add([...path, 'choices'], 'APPLICATION_COMMAND_OPTION_CHOICES_INVALID', 'Choices are only allowed on string, integer and number options');
  if (o.autocomplete === true) c.add([...path, 'autocomplete'], 'APPLICATION_COMMAND_AUTOCOMPLETE_INVALID', 'Autocomplete cannot be enabled on an option with choices');
  if (choices.length > MAX_CHOICES) c.add([...path, 'choices'], 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_CHOICES} or fewer in length.`);
  choices.forEach((ch, i) => {
    checkText(c, [...path, 'choices', i, 'name'], ch.name, 1, 100);
    const ok = o.type === O.String ? length(ch.value) >= 1 && length(ch.value) <= 100 : o.type === O.Integer ? Number.isSafeInteger(ch.value) : typeof ch.value === 'number';
    if (!ok) c.add([...path, 'choices', i, 'value'], 'BASE_TYPE_CHOICES', 'Invalid choice value for the option type.');
  });
}

function checkBounds(c: Collector, path: Array<string | number>, o: Json) {
  const numeric = o.type === O.Integer || o.type === O.Number;
  for (const key of ['min_value', 'max_value'] as const) {
    const v = o[key];
    if (v === undefined) continue;
    if (!numeric) c.add([...path, key], 'APPLICATION_COMMAND_OPTION_TYPE_INVALID', `${key} is only allowed on integer and number options`);
    else if (typeof v !== 'number' || (o.type === O.Integer && !Number.isInteger(v)) || Math.abs(v) > SAFE) c.add([...path, key], 'NUMBER_TYPE_MAX', `Must be a number between ${-SAFE} and ${SAFE}.`);
  }
  if (typeof o.min_value === 'number' && typeof o.max_value === 'number' && o.min_value > o.max_value) {
    c.add([...path, 'min_value'], 'APPLICATION_COMMAND_OPTION_MIN_MAX_INVALID', 'min_value must be less than or equal to max_value');
  }
  for (const [key, min] of [['min_length', 0], ['max_length', 1]] as const) {
    const v = o[key];
    if (v === undefined) continue;
    if (o.type !== O.String) c.add([...path, key], 'APPLICATION_COMMAND_OPTION_TYPE_INVALID', `${key} is only allowed on string options`);
    else if (!Number.isInteger(v) || (v as number) < min || (v as number) > 6000) c.add([...path, key], 'NUMBER_TYPE_MAX', `Must be between ${min} and 6000.`);
  }
  if (o.autocomplete === true && !WITH_CHOICES.includes(o.type as number)) c.add([...path, 'autocomplete'], 'APPLICATION_COMMAND_AUTOCOMPLETE_INVALID', 'Autocomplete is only allowed on string, integer and number options');
  if (o.channel_types !== undefined && o.type !== O.Channel) c.add([...path, 'channel_types'], 'APPLICATION_COMMAND_OPTION_TYPE_INVALID', 'channel_types is only allowed on channel options');
}

/** A list of options at one level: `parent` is the option type holding them (undefined at the command's top). */
function checkOptions(c: Collector, path: Array<string | number>, options: unknown, parent: number | undefined) {
  if (options === undefined) return;
  if (!Array.isArray(options)) return c.add(path, 'BASE_TYPE_ARRAY', 'Must be an array.');
  if (options.length > MAX_OPTIONS) c.add(path, 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_OPTIONS} or fewer in length.`);
  const nesting = options.filter((o: Json) => NESTING.includes(o.type as number)).length;
  if (nesting > 0 && nesting < options.length) c.add(path, 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID', 'Sub-commands and sub-command groups cannot be mixed with other options');
  let optionalSeen = false;
  const names = new Set<string>();
  (options as Json[]).forEach((o, i) => {
    const at = [...path, i];
    const type = o.type as number;
    if (!Number.isInteger(type) || type < O.Subcommand || type > O.Attachment) return c.add([...at, 'type'], 'BASE_TYPE_CHOICES', 'Value must be one of {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}.');
    if (parent === O.SubcommandGroup && type !== O.Subcommand) c.add([...at, 'type'], 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID', 'A sub-command group holds sub-commands only');
    if (parent === O.Subcommand && NESTING.includes(type)) c.add([...at, 'type'], 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID', 'A sub-command cannot hold sub-commands');
    checkSlashName(c, [...at, 'name'], o.name);
    if (isText(o.name) && names.has(o.name)) c.add([...at, 'name'], 'APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS', 'Option names must be unique');
    if (isText(o.name)) names.add(o.name);
    checkText(c, [...at, 'description'], o.description, 1, 100);
    if (NESTING.includes(type)) {
      if (o.required !== undefined && o.required !== false) c.add([...at, 'required'], 'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID', 'Sub-commands cannot be required');
      checkOptions(c, [...at, 'options'], o.options, type);
      return;
    }
    if (o.options !== undefined) c.add([...at, 'options'], 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID', 'Only sub-commands and groups hold options');
    if (o.required === true && optionalSeen) c.add([...at, 'required'], 'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID', 'Required options must be placed before non-required options');
    if (o.required !== true) optionalSeen = true;
    checkChoices(c, at, o);
    checkBounds(c, at, o);
  });
}

function checkCommand(c: Collector, path: Array<string | number>, cmd: Json, global: boolean) {
  const type = (cmd.type as number | undefined) ?? T.ChatInput;
  if (![T.ChatInput, T.User, T.Message].includes(type)) return c.add([...path, 'type'], 'BASE_TYPE_CHOICES', 'Value must be one of {1, 2, 3}.');
  if (type === T.ChatInput) {
    checkSlashName(c, [...path, 'name'], cmd.name);
    checkText(c, [...path, 'description'], cmd.description, 1, 100);
    checkOptions(c, [...path, 'options'], cmd.options, undefined);
  } else {
    // Context menu names may be mixed case with spaces; they take no description and no options.
    checkText(c, [...path, 'name'], cmd.name, 1, 32);
    if (cmd.description !== undefined && cmd.description !== '') c.add([...path, 'description'], 'APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION', 'Context menu commands cannot have a description');
    if (cmd.options !== undefined) c.add([...path, 'options'], 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID', 'Context menu commands cannot have options');
  }
  const perms = cmd.default_member_permissions;
  if (perms !== undefined && perms !== null && !(isText(perms) && /^\d{1,20}$/.test(perms))) c.add([...path, 'default_member_permissions'], 'BASE_TYPE_BAD_INT', 'Value is not a valid permission bit set.');
  // A server's commands have no contexts (they exist in that server only); Discord keeps none for them.
  const contexts = cmd.contexts;
  if (global && contexts !== undefined && contexts !== null) {
    if (!Array.isArray(contexts) || contexts.length === 0 || contexts.some((x) => ![0, 1, 2].includes(x as number))) c.add([...path, 'contexts'], 'BASE_TYPE_CHOICES', 'Value must be one of {0, 1, 2}.');
  }
  if (size(cmd) > MAX_COMMAND_SIZE) c.add(path, 'APPLICATION_COMMAND_TOO_LARGE', `Command exceeds maximum size (${MAX_COMMAND_SIZE})`);
}

/** The errors of a bulk overwrite's body, or null when Discord would take it. */
export function commandListErrors(body: unknown, global: boolean): FormErrors | null {
  const c = new Collector();
  if (!Array.isArray(body)) {
    c.add([], 'BASE_TYPE_ARRAY', 'Must be an array.');
    return c.root;
  }
  const seen = new Set<string>();
  (body as Json[]).forEach((cmd, i) => {
    if (typeof cmd !== 'object' || cmd === null) return c.add([i], 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
    checkCommand(c, [i], cmd, global);
    const key = `${(cmd.type as number | undefined) ?? T.ChatInput}:${String(cmd.name)}`;
    if (seen.has(key)) c.add([i, 'name'], 'APPLICATION_COMMANDS_DUPLICATE_NAME', 'Application command names must be unique');
    seen.add(key);
  });
  for (const [type, max] of Object.entries(MAX_COMMANDS)) {
    const n = (body as Json[]).filter((cmd) => ((cmd?.type as number | undefined) ?? T.ChatInput) === Number(type)).length;
    if (n > max) c.add([], 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer commands of type ${type}.`);
  }
  return Object.keys(c.root).length === 0 ? null : c.root;
}
