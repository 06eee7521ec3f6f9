import type { DailyFigures } from '../../../src/console/serverOverview.js';

// Server-rendered SVG like attemptChart.tsx: no script, colours as SVG attributes (the CSP allows no inline style).
export interface Series<K extends string> {
  key: K;
  label: string;
  fill: string;
}

const WIDTH = 600;
const HEIGHT = 170;
const PLOT = { left: 44, top: 10, bottom: 28, right: 8 };
const shortDay = (day: string) => day.slice(5);

/**
 * Figures per day as bars: `stacked` for parts of one whole (deliveries by outcome), side by side otherwise (joined
 * beside left). Screen readers get the title and a summary, each day's figures in its `<title>`, and the same
 * figures as a table below.
 */
export function DailyChart<K extends string>(props: { id: string; title: string; figures: DailyFigures<K>; series: Array<Series<K>>; stacked?: boolean }) {
  const { id, figures, series } = props;
  const days = figures.days;
  const sumOf = (counts: Record<K, number>) => series.reduce((n, s) => n + counts[s.key], 0);
  const max = Math.max(1, ...days.map((d) => (props.stacked ? sumOf(d.counts) : Math.max(...series.map((s) => d.counts[s.key])))));
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const slot = (WIDTH - PLOT.left - PLOT.right) / days.length;
  const barWidth = props.stacked ? slot - 4 : (slot - 4) / series.length;
  const totals = series.map((s) => `${days.reduce((n, d) => n + d.counts[s.key], 0)} ${s.label}`).join(', ');
  const dayText = (d: (typeof days)[number]) => `${d.day}: ${series.map((s) => `${d.counts[s.key]} ${s.label}`).join(', ')}`;
  return (
    <figure class="chart" data-chart={id}>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" role="img" aria-labelledby={`${id}-title ${id}-desc`}>
        <title id={`${id}-title`}>{props.title}</title>
        <desc id={`${id}-desc`}>{`Over the last ${days.length} days: ${totals}.`}</desc>
        <line x1={PLOT.left} y1={HEIGHT - PLOT.bottom} x2={WIDTH - PLOT.right} y2={HEIGHT - PLOT.bottom} stroke="#4b5563" />
        <text x={PLOT.left - 4} y={PLOT.top + 8} font-size="11" text-anchor="end" fill="#1b1f24">
          {max}
        </text>
        <text x={PLOT.left - 4} y={HEIGHT - PLOT.bottom} font-size="11" text-anchor="end" fill="#1b1f24">
          0
        </text>
        {days.map((d, i) => {
          const x = PLOT.left + i * slot + 2;
          let y = HEIGHT - PLOT.bottom;
          return (
            <g data-day={d.day}>
              <title>{dayText(d)}</title>
              {series.map((s, j) => {
                const height = (d.counts[s.key] / max) * plotHeight;
                if (height <= 0) return null;
                if (props.stacked) {
                  y -= height;
                  return <rect x={x} y={y} width={Math.max(1, barWidth)} height={height} fill={s.fill} data-series={s.key} data-count={d.counts[s.key]} />;
                }
                return <rect x={x + j * barWidth} y={HEIGHT - PLOT.bottom - height} width={Math.max(1, barWidth - 1)} height={height} fill={s.fill} data-series={s.key} data-count={d.counts[s.key]} />;
              })}
              {i % 3 === 0 && (
                <text x={x} y={HEIGHT - PLOT.bottom + 16} font-size="11" fill="#1b1f24">
                  {shortDay(d.day)}
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
        <table>
          <caption>{props.title} (UTC days)</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {series.map((s) => (
                <th scope="col">{s.label}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr>
                <th scope="row">{d.day}</th>
                {series.map((s) => (
                  <td>{d.counts[s.key]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
