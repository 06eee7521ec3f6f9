import { memberNames } from '../../../src/console/memberNames.js';
import { searchMembers, type MemberSearch } from '../../../src/console/memberSearch.js';
import { SNOWFLAKE_PATTERN } from '../../../src/core/snowflake.js';
import type { AppDeps } from '../../context.js';
import type { ConsoleContext } from '../consoleState.js';
import type { FieldError, FormProblem } from '../views/formParts.js';
import { byIdFieldOf, searchFieldOf, searchProblem, type MemberPickerProps } from '../views/memberPicker.js';

/** Seconds a page whose search Discord did not answer asks the browser to wait, when Discord named none. */
const SEARCH_RETRY_SECONDS = 5;

/** The user id a picker sent: its "by id" input when filled (a user who left), else the member chosen by name. */
export const pickedId = (form: URLSearchParams, name: string) => (form.get(byIdFieldOf(name)) ?? '').trim() || (form.get(name) ?? '').trim();

/** The picked user id, or the field error that names the picker (nothing picked, or an id that is not one). */
export function pickedMember(form: URLSearchParams, name: string, byId: boolean): string | FieldError {
  const id = pickedId(form, name);
  if (SNOWFLAKE_PATTERN.test(id)) return id;
  const how = byId ? 'search by name and choose one, or give their user id (17 to 20 digits)' : 'search by name and choose one';
  return { field: id !== '' && byId && form.get(byIdFieldOf(name)) ? byIdFieldOf(name) : name, message: `Pick a member: ${how}.` };
}

/**
 * A page's member picker from its request: the search its query asks (GET), the member its values already chose
 * (named when the platform knows them), and the problem and status the search gives the page (400 for a refused
 * query, 503 with Retry-After when the platform did not answer).
 */
export async function memberPick(deps: AppDeps, ctx: ConsoleContext, guildId: string, name: string, values: URLSearchParams) {
  const asked = ctx.method === 'GET' ? ctx.query[searchFieldOf(name)] : undefined;
  const search: MemberSearch = await searchMembers(deps.platform, guildId, typeof asked === 'string' ? asked : undefined);
  const id = pickedId(values, name);
  const selected = SNOWFLAKE_PATTERN.test(id) ? { userId: id, name: (await memberNames(deps.memberCache, guildId, [id])).get(id) ?? null } : undefined;
  const picker: Pick<MemberPickerProps, 'name' | 'search' | 'selected'> = { name, search, selected };
  return { picker, ...searchOutcome(ctx, name, search) };
}

/** The problem and status a search gives its page; Retry-After on a 503. */
export function searchOutcome(ctx: ConsoleContext, name: string, search: MemberSearch): { problem?: FormProblem; status: number } {
  const problem = searchProblem(name, search);
  if (search.kind === 'unavailable') ctx.set('Retry-After', String(search.retryAfterSeconds ?? SEARCH_RETRY_SECONDS));
  return { problem, status: problem?.status ?? 200 };
}

/** A GET page's values from its query string (a search carries the form's values back). */
export const queryValues = (ctx: ConsoleContext) => new URLSearchParams(ctx.querystring);
