import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { WebhookEndpoint } from '../../../db/webhooks/webhooks.js';
import type { DeliverySummary, DeliveryView } from '../../../src/webhooks/readDeliveries.js';
import { DataTable } from './dataTable.js';
import { CsrfField, isoTime, Layout, type Viewer } from './layout.js';

const nav = (guild: GuildRecord) => ({ id: guild.id, name: guild.name, active: 'webhooks' as const });
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;

export interface DeliveryFilter {
  status?: string;
  event?: string;
}

function DeliveryTable(props: { guild: GuildRecord; deliveries: DeliverySummary[]; olderHref: string | null }) {
  return (
    <div id="deliveries">
      <DataTable
        caption="Deliveries, newest first"
        columns={['Delivery', 'Event', 'Status', 'Attempts', 'Created']}
        rows={props.deliveries}
        empty={{ name: 'deliveries', text: 'No delivery matches.' }}
        row={(d) => (
          <tr data-delivery-id={String(d.id)}>
            <td>
              <a href={`/console/servers/${props.guild.id}/deliveries/${d.id}`}>#{d.id}</a>
            </td>
            <td>
              {d.eventType} <code class="muted">{d.eventId}</code>
            </td>
            <td data-status={d.status}>{d.status}</td>
            <td>{d.attempts}</td>
            <td>{isoTime(d.createdAt)}</td>
          </tr>
        )}
      />
      {props.olderHref && (
        <p>
          <a href={props.olderHref} rel="next">
            Older deliveries
          </a>
        </p>
      )}
    </div>
  );
}

/** An endpoint's deliveries; the filter form works without JavaScript, htmx swaps only the table when it runs. */
export function DeliveriesPage(props: {
  viewer: Viewer;
  guild: GuildRecord;
  endpoint: WebhookEndpoint;
  deliveries: DeliverySummary[];
  filter: DeliveryFilter;
  eventTypes: readonly string[];
  olderHref: string | null;
}) {
  const { guild, endpoint, filter } = props;
  const action = `/console/servers/${guild.id}/webhooks/${endpoint.id}/deliveries`;
  return (
    <Layout title="Deliveries" viewer={props.viewer} server={nav(guild)}>
      <p>
        Endpoint <code>{endpoint.url}</code> · <a href={`/console/servers/${guild.id}/webhooks`}>all endpoints</a>
      </p>
      <form method="get" action={action} class="filters" hx-get={action} hx-target="#deliveries" hx-select="#deliveries" hx-swap="outerHTML" hx-push-url="true">
        <p>
          <label for="filter-status">Status</label>
          <br />
          <select id="filter-status" name="status">
            <option value="">any</option>
            {DELIVERY_STATUSES.map((s) => (
              <option value={s} selected={filter.status === s}>
                {s}
              </option>
            ))}
          </select>
        </p>
        <p>
          <label for="filter-event">Event type</label>
          <br />
          <select id="filter-event" name="event">
            <option value="">any</option>
            {props.eventTypes.map((t) => (
              <option value={t} selected={filter.event === t}>
                {t}
              </option>
            ))}
          </select>
        </p>
        <p>
          <button type="submit">Filter</button>
        </p>
      </form>
      <DeliveryTable guild={guild} deliveries={props.deliveries} olderHref={props.olderHref} />
    </Layout>
  );
}

/** `temporalRunHref` only for operators (CONSOLE_OPERATOR_USER_IDS): links into Temporal UI. */
export function DeliveryPage(props: { viewer: Viewer; guild: GuildRecord; delivery: DeliveryView; temporalRunHref?: (workflowId: string) => string }) {
  const { guild, delivery: d, temporalRunHref } = props;
  let body = d.body;
  try {
    body = JSON.stringify(JSON.parse(d.body), null, 2);
  } catch {
    // Shown as stored.
  }
  return (
    <Layout title={`Delivery #${d.id}`} viewer={props.viewer} server={nav(guild)}>
      <p>
        <a href={`/console/servers/${guild.id}/webhooks/${d.endpointId}/deliveries`}>Back to the deliveries</a>
      </p>
      <dl>
        <dt>Event</dt>
        <dd>
          {d.eventType} <code>{d.eventId}</code>
        </dd>
        <dt>Status</dt>
        <dd data-status={d.status}>{d.status}</dd>
        <dt>Next scheduled attempt</dt>
        <dd data-next-attempt>{d.nextAttemptAt ? isoTime(d.nextAttemptAt) : 'none'}</dd>
        {temporalRunHref && (
          <>
            <dt>Runs in Temporal UI (operators)</dt>
            <dd data-temporal-runs>
              {d.workflowIds.length === 0
                ? 'none yet'
                : d.workflowIds.map((id) => (
                    <>
                      <a href={temporalRunHref(id)}>{id}</a>{' '}
                    </>
                  ))}
            </dd>
          </>
        )}
      </dl>
      {(d.status === 'failed' || d.status === 'cancelled') && (
        <form method="post" action={`/console/servers/${guild.id}/deliveries/${d.id}/retry`}>
          <CsrfField token={props.viewer.csrf} />
          <button type="submit">Retry this delivery</button>
        </form>
      )}
      <h2>Attempts</h2>
      <DataTable
        caption="Every attempt, first to last"
        columns={['#', 'Time', 'Status code', 'Duration', 'Response excerpt', 'Error']}
        rows={d.attemptLog}
        empty={{ name: 'attempts', text: 'No attempt yet.' }}
        row={(a) => (
          <tr data-attempt={String(a.attempt)}>
            <td>{a.attempt}</td>
            <td>{isoTime(a.attemptedAt)}</td>
            <td data-status-code>{a.statusCode ?? '—'}</td>
            <td>{a.durationMs} ms</td>
            <td>
              <code>{a.responseExcerpt ?? ''}</code>
            </td>
            <td>{a.error ?? ''}</td>
          </tr>
        )}
      />
      <h2>Event body</h2>
      <pre>
        <code>{body}</code>
      </pre>
    </Layout>
  );
}
