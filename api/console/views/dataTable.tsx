import type { ComponentChildren, VNode } from 'preact';

/** A wide table's box: it scrolls sideways on a narrow screen, in a region the keyboard can reach and scroll. */
export function SideScroll(props: { children: ComponentChildren }) {
  return (
    <div class="scroll" tabIndex={0} role="region" aria-label="Table (scrolls sideways on a narrow screen)">
      {props.children}
    </div>
  );
}

/**
 * A table of records under its caption, or one line saying there is none (marked `data-empty` for the tests). It
 * scrolls sideways on a narrow screen, in a region the keyboard can reach and scroll (axe: scrollable-region-focusable).
 */
export function DataTable<T>(props: {
  caption: ComponentChildren;
  columns: ComponentChildren[];
  rows: readonly T[];
  row: (record: T) => VNode;
  empty: { name: string; text: string };
}) {
  if (props.rows.length === 0) return <p data-empty={props.empty.name}>{props.empty.text}</p>;
  return (
    <SideScroll>
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th scope="col">{column}</th>
            ))}
          </tr>
        </thead>
        <tbody>{props.rows.map(props.row)}</tbody>
      </table>
    </SideScroll>
  );
}
