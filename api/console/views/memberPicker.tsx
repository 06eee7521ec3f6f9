import { MEMBER_QUERY_MAX, type MemberSearch } from '../../../src/console/memberSearch.js';
import { FieldMessage, FORM_TOKEN_FIELD, invalidAttrs, type FormProblem } from './formParts.js';

/** The query parameter of a picker's search, and the id of its input (the error summary links to it). */
export const searchFieldOf = (name: string) => `${name}-q`;
/** The "by id" input of a picker that takes users who are no longer members. */
export const byIdFieldOf = (name: string) => `${name}-id`;
const searchFormOf = (name: string) => `${name}-search`;
const resultsOf = (name: string) => `${name}-results`;

/** Values a search must not carry into a URL: the session's CSRF token and the form's one-time token. */
const UNSENT = new Set(['_csrf', FORM_TOKEN_FIELD]);

/**
 * The picker's search form, rendered before (outside) the page's form since forms do not nest: its input and button
 * sit in the picker through their `form` attribute. It GETs the page again with the query and the values the page
 * was rendered with (so a search after a refused form keeps them), never the tokens.
 */
export function MemberSearchForm(props: { name: string; action: string; values: URLSearchParams }) {
  const skip = new Set([...UNSENT, props.name, searchFieldOf(props.name)]);
  return (
    <form id={searchFormOf(props.name)} method="get" action={props.action}>
      {[...props.values].filter(([k]) => !skip.has(k)).map(([k, v]) => (
        <input type="hidden" name={k} value={v} />
      ))}
    </form>
  );
}

/** The problem a search gives its field: a refused query, or the platform unreachable. */
export function searchProblem(name: string, search: MemberSearch): FormProblem | undefined {
  const field = searchFieldOf(name);
  if (search.kind === 'invalid') return { status: 400, code: 'INVALID_INPUT', errors: [{ field, message: search.message }] };
  if (search.kind === 'unavailable') return { status: 503, code: 'PLATFORM_UNAVAILABLE', errors: [{ field, message: 'Discord did not answer the search. Try again in a moment; the form keeps what you entered.' }] };
  return undefined;
}

export interface MemberPickerProps {
  /** The form field carrying the user id. */
  name: string;
  label: string;
  /** The page the search GETs (the form's own page). */
  searchAction: string;
  search: MemberSearch;
  /** The member already chosen, kept checked: the name when known. */
  selected?: { userId: string; name: string | null };
  /** Offer an id input for a user the search cannot find (left the server): only where the action applies to them. */
  byId?: { hint: string; value: string };
  problem?: FormProblem;
}

/**
 * One member picked by name, without JavaScript: the manager searches (the page comes back with up to 10 members
 * whose name starts so, as radio buttons carrying the user id), picks one, then sends the form. htmx searches as
 * the manager types, replacing the results only, so the rest of the form keeps what was typed.
 */
export function MemberPicker(props: MemberPickerProps) {
  const { name, search, selected, problem } = props;
  const q = searchFieldOf(name);
  const found = search.kind === 'found' ? search.members : [];
  const shown = selected && !found.some((m) => m.userId === selected.userId) ? [{ userId: selected.userId, name: selected.name ?? `user ${selected.userId}` }, ...found] : found;
  const query = search.kind === 'none' ? '' : search.query;
  return (
    <fieldset id={name} {...invalidAttrs(problem, name, true)}>
      <legend>{props.label}</legend>
      <FieldMessage problem={problem} field={name} />
      <p>
        <label for={q}>Search by name</label>
        <span id={`${q}-hint`} class="muted hint">
          The start of a username, display name or nickname.
        </span>
        <FieldMessage problem={problem} field={q} />
        <input
          type="search"
          id={q}
          name={q}
          form={searchFormOf(name)}
          value={query}
          maxLength={MEMBER_QUERY_MAX + 8}
          aria-describedby={`${q}-hint`}
          hx-get={props.searchAction}
          hx-trigger="input changed delay:400ms, search"
          hx-target={`#${resultsOf(name)}`}
          hx-select={`#${resultsOf(name)}`}
          hx-swap="outerHTML"
          {...invalidAttrs(problem, q)}
        />{' '}
        <button type="submit" form={searchFormOf(name)}>
          Search
        </button>
      </p>
      <div id={resultsOf(name)} aria-live="polite">
        {search.kind === 'found' && found.length === 0 && (
          <p data-empty="members" role="status">
            No member's name starts with “{search.query}”.{props.byId ? ' Someone who left the server can be given by user id below.' : ''}
          </p>
        )}
        {shown.map((m) => (
          <label class="check">
            <input type="radio" name={name} value={m.userId} checked={shown.length === 1 || m.userId === selected?.userId} /> {m.name} <small class="muted">{m.userId}</small>
          </label>
        ))}
      </div>
      {props.byId && (
        <p>
          <label for={byIdFieldOf(name)}>Or by user id</label>
          <span id={`${byIdFieldOf(name)}-hint`} class="muted hint">
            {props.byId.hint}
          </span>
          <FieldMessage problem={problem} field={byIdFieldOf(name)} />
          <input type="text" id={byIdFieldOf(name)} name={byIdFieldOf(name)} value={props.byId.value} inputMode="numeric" size={24} aria-describedby={`${byIdFieldOf(name)}-hint`} {...invalidAttrs(problem, byIdFieldOf(name))} />
        </p>
      )}
    </fieldset>
  );
}

/** A finder's field: `member-q` its name search, `member-id` its user id. */
export const FINDER_FIELD = 'member';

/**
 * Find a member's page by name (the server's member search: each found is a link to their page) or by user id
 * (someone who left may still have a record). A GET form: a search changes nothing.
 */
export function MemberFinder(props: { action: string; title: string; values?: URLSearchParams; problem?: FormProblem }) {
  const q = searchFieldOf(FINDER_FIELD);
  const id = byIdFieldOf(FINDER_FIELD);
  return (
    <form method="get" action={props.action} class="card" role="search">
      <h2>{props.title}</h2>
      <p>
        <label for={q}>Member name</label>
        <span id={`${q}-hint`} class="muted hint">
          The start of a username, display name or nickname.
        </span>
        <FieldMessage problem={props.problem} field={q} />
        <input type="search" id={q} name={q} value={props.values?.get(q) ?? ''} aria-describedby={`${q}-hint`} {...invalidAttrs(props.problem, q)} />
      </p>
      <p>
        <label for={id}>Or user id</label>
        <span id={`${id}-hint`} class="muted hint">
          For someone the search cannot find (they left the server): 17 to 20 digits.
        </span>
        <FieldMessage problem={props.problem} field={id} />
        <input type="text" id={id} name={id} value={props.values?.get(id) ?? ''} inputMode="numeric" aria-describedby={`${id}-hint`} {...invalidAttrs(props.problem, id)} />
      </p>
      <p>
        <button type="submit">Find the member</button>
      </p>
    </form>
  );
}

/** A finder's results: each member a link to their page, or what to do when none matched. */
export function FoundMembers(props: { search: MemberSearch; hrefOf: (userId: string) => string; empty: string }) {
  const { search } = props;
  if (search.kind !== 'found') return null;
  if (search.members.length === 0) {
    return (
      <p data-empty={props.empty}>
        No member's name starts with "{search.query}". Someone who left the server is found by user id (in Discord: right-click them, Copy User ID).
      </p>
    );
  }
  return (
    <ul data-found>
      {search.members.map((m) => (
        <li>
          <a href={props.hrefOf(m.userId)}>{m.name}</a> <small class="muted">{m.userId}</small>
        </li>
      ))}
    </ul>
  );
}
