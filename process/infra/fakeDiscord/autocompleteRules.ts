import { ApplicationCommandOptionType as O, InteractionResponseType as R, InteractionType } from 'discord-api-types/v10';
import type { FakeAnswer } from './faults.js';

// What Discord takes as the answer to an interaction, as far as autocomplete goes
// (https://docs.discord.com/developers/interactions/receiving-and-responding#interaction-response-object-autocomplete):
// an APPLICATION_COMMAND_AUTOCOMPLETE interaction is answered only with type 8, and type 8 answers only that; its
// `data.choices` are at most 25, each a name of 1 to 100 characters (blank is refused: trimmed first) and a value of
// the focused option's type, a string value 1 to 100 characters. A breach is 400/50035 with the field it names.

/** What the fake keeps of an interaction it sent, to judge its answer: its type, and for autocomplete the option typed. */
export interface IssuedInteraction {
  id: string;
  issuedAt: number;
  type: number;
  /** The focused option's type (an autocomplete interaction's). */
  focusedType?: number;
}

type Json = Record<string, unknown>;
type Problem = { path: Array<string | number>; code: string; message: string };

const MAX_CHOICES = 25;
const MAX_TEXT = 100;
/** Every answer type but 8 that some interaction takes (Discord names the ones the interaction at hand allows). */
const NOT_AUTOCOMPLETE = '{4, 5, 6, 7, 9}';

/** The focused option of an autocomplete interaction's data (inside a sub-command's, when there is one), with its type. */
export function focusedTypeOf(data: Json | undefined): number | undefined {
  for (const option of (data?.options ?? []) as Json[]) {
    if (option.focused === true) return option.type as number;
    const inner = focusedTypeOf(option);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

const badLength = (path: Problem['path']): Problem => ({ path, code: 'BASE_TYPE_BAD_LENGTH', message: `Must be between 1 and ${MAX_TEXT} in length.` });

function valueProblem(value: unknown, optionType: number | undefined, path: Problem['path']): Problem | undefined {
  if (optionType === O.String) {
    if (typeof value !== 'string') return { path, code: 'BASE_TYPE_BAD_TYPE', message: 'Must be a string.' };
    return value.length === 0 || value.length > MAX_TEXT ? badLength(path) : undefined;
  }
  if (optionType === O.Integer && !Number.isSafeInteger(value)) return { path, code: 'NUMBER_TYPE_COERCE', message: `Value "${String(value)}" is not int.` };
  if (optionType === O.Number && (typeof value !== 'number' || !Number.isFinite(value))) return { path, code: 'NUMBER_TYPE_COERCE', message: `Value "${String(value)}" is not a valid number.` };
  return undefined;
}

function choicesProblem(data: unknown, optionType: number | undefined): Problem | undefined {
  const choices = (data as Json | null | undefined)?.choices;
  if (!Array.isArray(choices)) return { path: ['data', 'choices'], code: 'BASE_TYPE_REQUIRED', message: 'This field is required' };
  if (choices.length > MAX_CHOICES) return { path: ['data', 'choices'], code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${MAX_CHOICES} or fewer in length.` };
  for (const [i, choice] of choices.entries()) {
    const { name, value } = (choice ?? {}) as Json;
    const at = ['data', 'choices', i];
    if (typeof name !== 'string' || name.trim().length === 0 || [...name].length > MAX_TEXT) return badLength([...at, 'name']);
    const problem = valueProblem(value, optionType, [...at, 'value']);
    if (problem) return problem;
  }
  return undefined;
}

const invalidForm = ({ path, code, message }: Problem): FakeAnswer => ({
  status: 400,
  body: { code: 50035, message: 'Invalid Form Body', errors: path.reduceRight<Json>((inner, step) => ({ [String(step)]: inner }), { _errors: [{ code, message }] }) },
});

/** The 50035 refusal of an interaction's first answer as far as autocomplete goes; undefined when Discord would take it. */
export function autocompleteRefusal(issued: IssuedInteraction, body: Json | null): FakeAnswer | undefined {
  const type = body?.type;
  const isAutocomplete = issued.type === InteractionType.ApplicationCommandAutocomplete;
  if (isAutocomplete && type !== R.ApplicationCommandAutocompleteResult) return invalidForm({ path: ['type'], code: 'BASE_TYPE_CHOICES', message: 'Value must be one of {8}.' });
  if (!isAutocomplete && type === R.ApplicationCommandAutocompleteResult) return invalidForm({ path: ['type'], code: 'BASE_TYPE_CHOICES', message: `Value must be one of ${NOT_AUTOCOMPLETE}.` });
  if (!isAutocomplete) return undefined;
  const problem = choicesProblem(body?.data, issued.focusedType);
  return problem && invalidForm(problem);
}
