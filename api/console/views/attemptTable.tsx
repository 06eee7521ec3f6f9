import type { DeliveryAttempt } from '../../../db/webhooks/deliveryPages.js';
import { DataTable } from './dataTable.js';
import { isoTime } from './layout.js';

/** The headers an attempt sent (the receiver verifies the signature with them), one per line. */
function RequestHeaders({ headers }: { headers: Record<string, string> | null }) {
  if (!headers) return <span class="muted">not recorded</span>;
  return (
    <dl class="headers">
      {Object.entries(headers).map(([name, value]) => (
        <>
          <dt>{name}</dt>
          <dd>
            <code>{value}</code>
          </dd>
        </>
      ))}
    </dl>
  );
}

/** Every attempt of a delivery: what was sent beside what came back. */
export function AttemptTable({ attempts }: { attempts: DeliveryAttempt[] }) {
  return (
    <DataTable
      caption="Every attempt, first to last"
      columns={['#', 'Time', 'Request headers', 'Status code', 'Duration', 'Response excerpt', 'Error']}
      rows={attempts}
      empty={{ name: 'attempts', text: 'No attempt yet.' }}
      row={(a) => (
        <tr data-attempt={String(a.attempt)}>
          <td>{a.attempt}</td>
          <td>{isoTime(a.attemptedAt)}</td>
          <td data-request-headers>
            <RequestHeaders headers={a.requestHeaders} />
          </td>
          <td data-status-code>{a.statusCode ?? '—'}</td>
          <td>{a.durationMs} ms</td>
          <td>
            <code>{a.responseExcerpt ?? ''}</code>
          </td>
          <td>{a.error ?? ''}</td>
        </tr>
      )}
    />
  );
}
