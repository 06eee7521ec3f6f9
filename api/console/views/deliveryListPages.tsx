import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { DeliveryListRow } from '../../../src/webhooks/readDeliveries.js';
import type { WebhookEndpoint } from '../../../src/webhooks/readEndpoints.js';
import { DataTable } from './dataTable.js';
import { isoTime, Layout, type Viewer } from './layout.js';
import { endpointPath, webhooksNav } from './webhookPages.js';
import { OlderLink } from './olderLink.js';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;

/** The filter as the form shows it (query names and text values); every key is optional. */
export type DeliveryFilter = Partial<Record<'status' | 'event' | 'event_id' | 'from' | 'to' | 'code', string>>;

function DeliveryTable(props: { guild: GuildRecord; deliveries: DeliveryListRow[]; olderHref: string | null; showEndpoint: boolean }) {
  const columns = ['Delivery', ...(props.showEndpoint ? ['Endpoint'] : []), 'Event', 'Status', 'Attempts', 'Last answer', 'Created'];
  return (
    <div id="deliveries">
      <DataTable
        caption="Deliveries, newest first"
        columns={columns}
        rows={props.deliveries}
        empty={{ name: 'deliveries', text: 'No delivery matches.' }}
        row={(d) => (
          <tr data-delivery-id={String(d.id)}>
            <td>
              <a href={`/console/servers/${props.guild.id}/deliveries/${d.id}`}>#{d.id}</a>
            </td>
            {props.showEndpoint && (
              <td>
                <a href={endpointPath(props.guild.id, d.endpointId)}>
                  <code>{d.endpointUrl}</code>
                </a>
              </td>
            )}
            <td>
              {d.eventType} <code class="muted">{d.eventId}</code>
            </td>
            <td data-status={d.status}>{d.status}</td>
            <td>{d.attempts}</td>
            <td data-last-status-code>{d.lastStatusCode ?? (d.attempts > 0 ? 'no answer' : '—')}</td>
            <td>{isoTime(d.createdAt)}</td>
          </tr>
        )}
      />
      <OlderLink href={props.olderHref} label="Older deliveries" />
    </div>
  );
}

function Choice(props: { id: string; name: string; label: string; value: string | undefined; options: readonly string[] }) {
  return (
    <p>
      <label for={props.id}>{props.label}</label>
      <br />
      <select id={props.id} name={props.name}>
        <option value="">any</option>
        {props.options.map((o) => (
          <option value={o} selected={props.value === o}>
            {o}
          </option>
        ))}
      </select>
    </p>
  );
}

function Field(props: { id: string; name: string; label: string; value: string | undefined; date?: boolean; placeholder?: string; size?: number }) {
  const common = { id: props.id, name: props.name, value: props.value ?? '' };
  return (
    <p>
      <label for={props.id}>{props.label}</label>
      <br />
      {props.date ? <input type="date" {...common} /> : <input type="text" {...common} placeholder={props.placeholder} size={props.size} />}
    </p>
  );
}

/** The filters; the form works without JavaScript, htmx swaps only the table when it runs. */
function FilterForm(props: { action: string; filter: DeliveryFilter; eventTypes: readonly string[] }) {
  const { filter } = props;
  return (
    <form method="get" action={props.action} class="filters" hx-get={props.action} hx-target="#deliveries" hx-select="#deliveries" hx-swap="outerHTML" hx-push-url="true">
      <Choice id="filter-status" name="status" label="Status" value={filter.status} options={DELIVERY_STATUSES} />
      <Choice id="filter-event" name="event" label="Event type" value={filter.event} options={props.eventTypes} />
      <Field id="filter-event-id" name="event_id" label="Event id" value={filter.event_id} placeholder="evt_…" size={26} />
      <Field id="filter-from" name="from" label="From (UTC day)" value={filter.from} date />
      <Field id="filter-to" name="to" label="To (UTC day)" value={filter.to} date />
      <Field id="filter-code" name="code" label="Last HTTP status" value={filter.code} placeholder="500, or none" size={10} />
      <p>
        <button type="submit">Filter</button>
      </p>
    </form>
  );
}

/** One endpoint's deliveries, or (without `endpoint`) those of every endpoint of the server. */
export function DeliveriesPage(props: {
  viewer: Viewer;
  guild: GuildRecord;
  endpoint?: WebhookEndpoint;
  deliveries: DeliveryListRow[];
  filter: DeliveryFilter;
  eventTypes: readonly string[];
  olderHref: string | null;
}) {
  const { guild, endpoint } = props;
  const action = endpoint ? `${endpointPath(guild.id, endpoint.id)}/deliveries` : `/console/servers/${guild.id}/deliveries`;
  return (
    <Layout title={endpoint ? 'Deliveries' : 'Deliveries of every endpoint'} viewer={props.viewer} server={webhooksNav(guild)}>
      <p>
        {endpoint && (
          <>
            Endpoint <a href={endpointPath(guild.id, endpoint.id)}>
              <code>{endpoint.url}</code>
            </a>{' '}
            · <a href={`${endpointPath(guild.id, endpoint.id)}/recover`}>Recover failed deliveries…</a> ·{' '}
          </>
        )}
        <a href={`/console/servers/${guild.id}/webhooks`}>all endpoints</a>
      </p>
      <FilterForm action={action} filter={props.filter} eventTypes={props.eventTypes} />
      <DeliveryTable guild={guild} deliveries={props.deliveries} olderHref={props.olderHref} showEndpoint={!endpoint} />
    </Layout>
  );
}
