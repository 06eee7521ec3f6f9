import type { FakeAnswer } from './faults.js';

// Discord's rules for the `components` of a message the bot posts or edits (legacy layout: action rows of buttons;
// https://docs.discord.com/developers/components/reference#action-row, #button): at most 5 action rows, 1 to 5
// buttons in a row, a custom_id of 1 to 100 characters unique in the message, a label of at most 80, a known style
// (a link button takes a url and no custom_id). A breach answers 400/50035 Invalid Form Body with Discord's `errors`
// object pointing at the field. Kept apart from the content and embed limits, which have their own module.

const MAX_ROWS = 5;
const MAX_IN_ROW = 5;
const MAX_CUSTOM_ID = 100;
const MAX_LABEL = 80;
const ACTION_ROW = 1;
const BUTTON = 2;
const LINK = 5;

type FieldError = { code: string; message: string };
type Problem = { path: Array<string | number>; error: FieldError };

const tooLong = (max: number): FieldError => ({ code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${max} or fewer in length.` });
const badLength = (min: number, max: number): FieldError => ({ code: 'BASE_TYPE_BAD_LENGTH', message: `Must be between ${min} and ${max} in length.` });

function buttonProblem(button: Record<string, unknown>, path: Array<string | number>, seen: Set<string>): Problem | undefined {
  if (button.type !== BUTTON) return { path: [...path, 'type'], error: { code: 'UNION_TYPE_CHOICES', message: 'Value of field "type" must be one of (2,).' } };
  const style = button.style;
  if (typeof style !== 'number' || style < 1 || style > 6) return { path: [...path, 'style'], error: { code: 'BASE_TYPE_CHOICES', message: 'Value must be one of {1, 2, 3, 4, 5, 6}.' } };
  const label = button.label;
  if (label !== undefined && (typeof label !== 'string' || [...label].length > MAX_LABEL)) return { path: [...path, 'label'], error: tooLong(MAX_LABEL) };
  if (style === LINK) {
    if (typeof button.url !== 'string' || button.custom_id !== undefined) return { path: [...path, 'url'], error: { code: 'BUTTON_COMPONENT_URL_REQUIRED', message: 'A url is required.' } };
    return undefined;
  }
  const id = button.custom_id;
  if (typeof id !== 'string' || id.length === 0) return { path: [...path, 'custom_id'], error: { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' } };
  if (id.length > MAX_CUSTOM_ID) return { path: [...path, 'custom_id'], error: tooLong(MAX_CUSTOM_ID) };
  if (seen.has(id)) return { path: [...path, 'custom_id'], error: { code: 'COMPONENT_CUSTOM_ID_DUPLICATED', message: 'Component custom id cannot be duplicated' } };
  seen.add(id);
  return undefined;
}

function firstProblem(components: unknown): Problem | undefined {
  if (!Array.isArray(components)) return { path: ['components'], error: { code: 'LIST_TYPE_CONVERT', message: 'Only iterables may be used in a ListType' } };
  if (components.length > MAX_ROWS) return { path: ['components'], error: tooLong(MAX_ROWS) };
  const seen = new Set<string>();
  for (const [r, row] of components.entries()) {
    const rowPath = ['components', r];
    if ((row as { type?: unknown })?.type !== ACTION_ROW) return { path: [...rowPath, 'type'], error: { code: 'UNION_TYPE_CHOICES', message: 'Value of field "type" must be one of (1,).' } };
    const inRow = (row as { components?: unknown }).components;
    if (!Array.isArray(inRow) || inRow.length === 0 || inRow.length > MAX_IN_ROW) return { path: [...rowPath, 'components'], error: badLength(1, MAX_IN_ROW) };
    for (const [b, button] of inRow.entries()) {
      const problem = buttonProblem((button ?? {}) as Record<string, unknown>, [...rowPath, 'components', b], seen);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** Discord's nested `errors` object: each path step a key, the errors under `_errors`. */
function errorsAt(path: Array<string | number>, error: FieldError): Record<string, unknown> {
  return path.reduceRight<Record<string, unknown>>((inner, step) => ({ [String(step)]: inner }), { _errors: [error] });
}

/** The 50035 refusal of a message body whose `components` Discord would not take; undefined when there are none or they are fine. */
export function componentRefusal(body: Record<string, unknown> | null): FakeAnswer | undefined {
  if (!body || body.components === undefined) return undefined;
  const problem = firstProblem(body.components);
  if (!problem) return undefined;
  return { status: 400, body: { code: 50035, message: 'Invalid Form Body', errors: errorsAt(problem.path, problem.error) } };
}
