import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { WebhookEndpoint } from '../../../db/webhooks/webhooks.js';
import type { DeliverySummary, DeliveryView } from '../../../src/webhooks/readDeliveries.js';
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
      {props.deliveries.length === 0 ? (
        <p data-empty="deliveries">No delivery matches.</p>
      ) : (
        <div class="scroll" tabIndex={0} role="region" aria-label="Table (scrolls sideways on a narrow screen)">
          <table>
            <caption>Deliveries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Delivery</th>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {props.deliveries.map((d) => (
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
              ))}
            </tbody>
          </table>
        </div>
      )}
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

export function DeliveryPage(props: { viewer: Viewer; guild: GuildRecord; delivery: DeliveryView; temporalRunHref: (workflowId: string) => string }) {
  const { guild, delivery: d } = props;
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
        <dt>Runs in Temporal UI</dt>
        <dd>
          {d.workflowIds.length === 0
            ? 'none yet'
            : d.workflowIds.map((id) => (
                <>
                  <a href={props.temporalRunHref(id)}>{id}</a>{' '}
                </>
              ))}
        </dd>
      </dl>
      {(d.status === 'failed' || d.status === 'cancelled') && (
        <form method="post" action={`/console/servers/${guild.id}/deliveries/${d.id}/retry`}>
          <CsrfField token={props.viewer.csrf} />
          <button type="submit">Retry this delivery</button>
        </form>
      )}
      <h2>Attempts</h2>
      {d.attemptLog.length === 0 ? (
        <p data-empty="attempts">No attempt yet.</p>
      ) : (
        <div class="scroll" tabIndex={0} role="region" aria-label="Table (scrolls sideways on a narrow screen)">
          <table>
            <caption>Every attempt, first to last</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Time</th>
                <th scope="col">Status code</th>
                <th scope="col">Duration</th>
                <th scope="col">Response excerpt</th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {d.attemptLog.map((a) => (
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
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>Event body</h2>
      <pre>
        <code>{body}</code>
      </pre>
    </Layout>
  );
}
