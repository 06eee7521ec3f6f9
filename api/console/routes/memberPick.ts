import { memberNames } from '../../../src/console/memberNames.js';
import { searchMembers, type MemberSearch } from '../../../src/console/memberSearch.js';
import { SNOWFLAKE_PATTERN } from '../../../src/core/snowflake.js';
import type { AppDeps } from '../../context.js';
import type { ConsoleContext } from '../consoleState.js';
import type { FieldError, FormProblem } from '../views/formParts.js';
import { byIdFieldOf, FINDER_FIELD, searchFieldOf, searchProblem, type MemberPickerProps } from '../views/memberPicker.js';
import { seeOther } from '../render.js';

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

/**
 * A finder's GET (MemberFinder): a user id goes straight to `pathOf` it (303), one that is not an id is 400 on its
 * field; otherwise the name search, whose page the caller renders with this outcome. Undefined once redirected.
 */
export async function findMember(deps: AppDeps, ctx: ConsoleContext, guildId: string, pathOf: (userId: string) => string) {
  const values = new URLSearchParams(ctx.querystring);
  const byId = (values.get(byIdFieldOf(FINDER_FIELD)) ?? '').trim();
  if (byId !== '') {
    if (SNOWFLAKE_PATTERN.test(byId)) return void seeOther(ctx, pathOf(byId));
    const problem: FormProblem = { status: 400, code: 'INVALID_INPUT', errors: [{ field: byIdFieldOf(FINDER_FIELD), message: 'Give a user id: 17 to 20 digits.' }] };
    return { values, search: { kind: 'none' } as MemberSearch, problem, status: 400 };
  }
  const search = await searchMembers(deps.platform, guildId, values.get(searchFieldOf(FINDER_FIELD)) ?? '');
  return { values, search, ...searchOutcome(ctx, FINDER_FIELD, search) };
}
