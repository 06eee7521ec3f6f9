import type { ComponentChildren, VNode } from 'preact';
import { DataTable } from './dataTable.js';
import { OlderLink } from './olderLink.js';

/** A list's filter: one `<select>` (named `status` unless said) sent by GET, so the filtered list is a link. */
export interface ListFilter {
  /** The list's own path: the filter form's action. */
  action: string;
  /** The select's id (the label points at it). */
  id: string;
  label?: string;
  name?: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  /** The value the list is filtered by now (selected), or undefined for none. */
  current: string | undefined;
  /** The label of an empty first option meaning "no filter"; without it every value is a filter (a default applies). */
  any?: string;
}

/**
 * A paged list: the optional filter, the table (DataTable's caption, columns, rows, row and empty state) and the
 * link to older records (keyset, OlderLink). Each area's list page is this inside its Layout.
 */
export function ListView<T>(props: {
  filter?: ListFilter;
  caption: ComponentChildren;
  columns: ComponentChildren[];
  rows: readonly T[];
  row: (record: T) => VNode;
  empty: { name: string; text: string };
  older?: { href: string | null | undefined; label: string };
}) {
  const { filter } = props;
  return (
    <>
      {filter && (
        <form method="get" action={filter.action} class="filters">
          <p>
            <label for={filter.id}>{filter.label ?? 'Status'}</label>
            <br />
            <select id={filter.id} name={filter.name ?? 'status'}>
              {filter.any !== undefined && <option value="">{filter.any}</option>}
              {filter.options.map((o) => (
                <option value={o.value} selected={filter.current === o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </p>
          <p>
            <button type="submit">Show</button>
          </p>
        </form>
      )}
      <DataTable caption={props.caption} columns={props.columns} rows={props.rows} row={props.row} empty={props.empty} />
      {props.older && <OlderLink href={props.older.href} label={props.older.label} />}
    </>
  );
}

/** Filter options from a list of values, each shown by its name unless `labels` says otherwise. */
export const optionsOf = (values: readonly string[], labels: Record<string, string> = {}) => values.map((value) => ({ value, label: labels[value] ?? value }));
