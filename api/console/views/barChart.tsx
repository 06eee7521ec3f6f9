// Server-rendered SVG: no script, and colours as SVG attributes (the CSP allows no inline style).
import { SideScroll } from './dataTable.js';

export interface Series<K extends string> {
  key: K;
  label: string;
  fill: string;
}

/** One slot of the x axis (a day, an hour): its figures per series. */
export interface BarSlot<K extends string> {
  /** Marks the slot's group for the tests (e.g. `data-day`). */
  attrs: Record<string, string>;
  /** The slot's figures in words: the bars' tooltip and what a screen reader reads. */
  title: string;
  /** The label under the axis, or null for none. */
  tick: string | null;
  /** The slot in the table's first column. */
  rowHeader: string;
  counts: Record<K, number>;
}

const WIDTH = 600;
const HEIGHT = 170;
const PLOT = { left: 44, top: 10, bottom: 28, right: 8 };

/**
 * Figures per slot as bars: `stacked` for parts of one whole (outcomes), side by side otherwise. Screen readers get
 * the title and the summary (`<title>`, `<desc>`), each slot's figures in its `<title>`, and the same figures as a
 * table below the chart. `name` marks the chart (`data-chart`); `barAttrs` marks each bar for the tests.
 */
export function BarChart<K extends string>(props: {
  id: string;
  name: string;
  title: string;
  summary: string;
  series: ReadonlyArray<Series<K>>;
  slots: Array<BarSlot<K>>;
  stacked?: boolean;
  slotHeading: string;
  tableCaption: string;
  barAttrs: (key: K, count: number) => Record<string, string | number>;
}) {
  const { id, series, slots } = props;
  const sumOf = (counts: Record<K, number>) => series.reduce((n, s) => n + counts[s.key], 0);
  const max = Math.max(1, ...slots.map((d) => (props.stacked ? sumOf(d.counts) : Math.max(...series.map((s) => d.counts[s.key])))));
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const slot = (WIDTH - PLOT.left - PLOT.right) / slots.length;
  const barWidth = props.stacked ? slot - 4 : (slot - 4) / series.length;
  return (
    <figure class="chart" data-chart={props.name}>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" role="img" aria-labelledby={`${id}-title ${id}-desc`} data-chart={props.name}>
        <title id={`${id}-title`}>{props.title}</title>
        <desc id={`${id}-desc`}>{props.summary}</desc>
        <line x1={PLOT.left} y1={HEIGHT - PLOT.bottom} x2={WIDTH - PLOT.right} y2={HEIGHT - PLOT.bottom} stroke="#4b5563" />
        <text x={PLOT.left - 4} y={PLOT.top + 8} font-size="11" text-anchor="end" fill="#1b1f24">
          {max}
        </text>
        <text x={PLOT.left - 4} y={HEIGHT - PLOT.bottom} font-size="11" text-anchor="end" fill="#1b1f24">
          0
        </text>
        {slots.map((d, i) => {
          const x = PLOT.left + i * slot + 2;
          let y = HEIGHT - PLOT.bottom;
          return (
            <g {...d.attrs}>
              <title>{d.title}</title>
              {series.map((s, j) => {
                const count = d.counts[s.key];
                const height = (count / max) * plotHeight;
                if (height <= 0) return null;
                if (!props.stacked) return <rect x={x + j * barWidth} y={y - height} width={Math.max(1, barWidth - 1)} height={height} fill={s.fill} {...props.barAttrs(s.key, count)} />;
                y -= height;
                return <rect x={x} y={y} width={Math.max(1, barWidth)} height={height} fill={s.fill} {...props.barAttrs(s.key, count)} />;
              })}
              {d.tick !== null && (
                <text x={x} y={HEIGHT - PLOT.bottom + 16} font-size="11" fill="#1b1f24">
                  {d.tick}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <strong>{props.title}</strong>{' '}
        {series.map((s) => (
          <span class="legend">
            <svg width="12" height="12" aria-hidden="true">
              <rect width="12" height="12" fill={s.fill} />
            </svg>{' '}
            {s.label}{' '}
          </span>
        ))}
      </figcaption>
      <details>
        <summary>The figures as a table</summary>
        <SideScroll>
          <table>
            <caption>{props.tableCaption}</caption>
            <thead>
              <tr>
                <th scope="col">{props.slotHeading}</th>
                {series.map((s) => (
                  <th scope="col">{s.label}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {slots.map((d) => (
                <tr>
                  <th scope="row">{d.rowHeader}</th>
                  {series.map((s) => (
                    <td>{d.counts[s.key]}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </SideScroll>
      </details>
    </figure>
  );
}
