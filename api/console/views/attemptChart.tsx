import type { HourOfAttempts } from '../../../src/webhooks/readEndpointHealth.js';

// Server-rendered SVG: no script, and colours as SVG attributes (the CSP allows no inline style).
const OUTCOMES = [
  { key: 'delivered', label: 'delivered (2xx)', fill: '#15803d' },
  { key: 'rejected', label: 'refused (another HTTP status)', fill: '#b91c1c' },
  { key: 'noAnswer', label: 'no answer (timeout, connection)', fill: '#6b7280' },
] as const;

const WIDTH = 600;
const HEIGHT = 180;
const PLOT = { left: 36, top: 10, bottom: 30, right: 8 };
const hourLabel = (d: Date) => `${d.toISOString().slice(11, 13)}:00`;

/**
 * Attempts per hour by outcome over the last 24 hours, as stacked bars. Screen readers get the chart's title and a
 * summary (`<title>`, `<desc>`), each bar's figures in its own `<title>`, and the same figures as a table below it.
 */
export function AttemptChart({ hours }: { hours: HourOfAttempts[] }) {
  const max = Math.max(1, ...hours.map((h) => h.attempts));
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const slot = (WIDTH - PLOT.left - PLOT.right) / hours.length;
  const total = (key: (typeof OUTCOMES)[number]['key']) => hours.reduce((n, h) => n + h[key], 0);
  const summary = `${hours.reduce((n, h) => n + h.attempts, 0)} attempts in the last 24 hours: ${OUTCOMES.map((o) => `${total(o.key)} ${o.label}`).join(', ')}.`;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" role="img" aria-labelledby="attempt-chart-title attempt-chart-desc" data-chart="attempts-by-hour">
        <title id="attempt-chart-title">Attempts per hour by outcome, last 24 hours (UTC)</title>
        <desc id="attempt-chart-desc">{summary}</desc>
        <line x1={PLOT.left} y1={HEIGHT - PLOT.bottom} x2={WIDTH - PLOT.right} y2={HEIGHT - PLOT.bottom} stroke="#4b5563" />
        <text x={PLOT.left - 4} y={PLOT.top + 8} font-size="11" text-anchor="end" fill="#1b1f24">
          {max}
        </text>
        <text x={PLOT.left - 4} y={HEIGHT - PLOT.bottom} font-size="11" text-anchor="end" fill="#1b1f24">
          0
        </text>
        {hours.map((h, i) => {
          const x = PLOT.left + i * slot + 1;
          let y = HEIGHT - PLOT.bottom;
          return (
            <g data-hour={h.hour.toISOString()}>
              <title>{`${hourLabel(h.hour)} UTC: ${h.delivered} delivered, ${h.rejected} refused, ${h.noAnswer} without answer`}</title>
              {OUTCOMES.map((o) => {
                const height = (h[o.key] / max) * plotHeight;
                y -= height;
                return height > 0 ? <rect x={x} y={y} width={Math.max(1, slot - 2)} height={height} fill={o.fill} data-outcome={o.key} /> : null;
              })}
              {i % 6 === 0 && (
                <text x={x} y={HEIGHT - PLOT.bottom + 16} font-size="11" fill="#1b1f24">
                  {hourLabel(h.hour)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption>
        {OUTCOMES.map((o) => (
          <span class="legend">
            <svg width="12" height="12" aria-hidden="true">
              <rect width="12" height="12" fill={o.fill} />
            </svg>{' '}
            {o.label}{' '}
          </span>
        ))}
      </figcaption>
      <details>
        <summary>The figures as a table</summary>
        <table>
          <caption>Attempts per hour (UTC)</caption>
          <thead>
            <tr>
              <th scope="col">Hour</th>
              {OUTCOMES.map((o) => (
                <th scope="col">{o.label}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {hours.map((h) => (
              <tr>
                <th scope="row">{`${h.hour.toISOString().slice(0, 10)} ${hourLabel(h.hour)}`}</th>
                {OUTCOMES.map((o) => (
                  <td>{h[o.key]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
