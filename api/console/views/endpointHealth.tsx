import type { EndpointHealth } from '../../../src/webhooks/readEndpointHealth.js';
import { isoTime } from './layout.js';

const percent = (rate: number) => `${Math.floor(rate * 1000) / 10}%`;

/** Success rate over the last 24 hours and the latest attempt's answer, in words (the list's Health column). */
export function HealthSummary({ health }: { health: EndpointHealth | undefined }) {
  if (!health) return <span class="muted">no attempt yet</span>;
  const { window, successRate, last } = health;
  return (
    <span data-health>
      {successRate === null ? (
        <span data-success-rate="none">no attempt in 24 h</span>
      ) : (
        <span data-success-rate={percent(successRate)}>
          {percent(successRate)} of {window.attempts} delivered (24 h)
        </span>
      )}
      {last && (
        <>
          <br />
          <span class="muted" data-last-status={last.statusCode ?? 'none'}>
            last: {last.statusCode ?? 'no answer'} at {isoTime(last.attemptedAt)}
          </span>
        </>
      )}
    </span>
  );
}
