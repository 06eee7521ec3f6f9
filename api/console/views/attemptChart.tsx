import type { HourOfAttempts } from '../../../src/webhooks/readEndpointHealth.js';
import { BarChart } from './barChart.js';

const OUTCOMES = [
  { key: 'delivered', label: 'delivered (2xx)', fill: '#15803d' },
  { key: 'rejected', label: 'refused (another HTTP status)', fill: '#b91c1c' },
  { key: 'noAnswer', label: 'no answer (timeout, connection)', fill: '#6b7280' },
] as const;
type Outcome = (typeof OUTCOMES)[number]['key'];

const hourLabel = (d: Date) => `${d.toISOString().slice(11, 13)}:00`;

/** An endpoint's attempts per hour by outcome over the last 24 hours, as stacked bars. */
export function AttemptChart({ hours }: { hours: HourOfAttempts[] }) {
  const total = (key: Outcome) => hours.reduce((n, h) => n + h[key], 0);
  return (
    <BarChart
      id="attempt-chart"
      name="attempts-by-hour"
      title="Attempts per hour by outcome, last 24 hours (UTC)"
      summary={`${hours.reduce((n, h) => n + h.attempts, 0)} attempts in the last 24 hours: ${OUTCOMES.map((o) => `${total(o.key)} ${o.label}`).join(', ')}.`}
      series={OUTCOMES}
      stacked
      slots={hours.map((h, i) => ({
        attrs: { 'data-hour': h.hour.toISOString() },
        title: `${hourLabel(h.hour)} UTC: ${h.delivered} delivered, ${h.rejected} refused, ${h.noAnswer} without answer`,
        tick: i % 6 === 0 ? hourLabel(h.hour) : null,
        rowHeader: `${h.hour.toISOString().slice(0, 10)} ${hourLabel(h.hour)}`,
        counts: { delivered: h.delivered, rejected: h.rejected, noAnswer: h.noAnswer },
      }))}
      slotHeading="Hour"
      tableCaption="Attempts per hour (UTC)"
      barAttrs={(key) => ({ 'data-outcome': key })}
    />
  );
}
