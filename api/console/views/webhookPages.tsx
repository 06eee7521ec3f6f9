import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { WebhookEndpoint } from '../../../db/webhooks/webhooks.js';
import { SecretOnce } from './keysPages.js';
import { DataTable } from './dataTable.js';
import { CsrfField, isoTime, Layout, type Viewer } from './layout.js';

const nav = (guild: GuildRecord) => ({ id: guild.id, name: guild.name, active: 'webhooks' as const });

/** enabled / disabled by an operator / disabled for failing since when (the spec's three states). */
export function EndpointState({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (endpoint.enabled) {
    return (
      <span data-state="enabled">
        enabled{endpoint.failingSince && <> (failing since {isoTime(endpoint.failingSince)})</>}
      </span>
    );
  }
  if (endpoint.disabledReason === 'failing') {
    return <span data-state="disabled-failing">disabled for failing{endpoint.failingSince && <> since {isoTime(endpoint.failingSince)}</>}</span>;
  }
  return <span data-state="disabled-manual">disabled by an operator</span>;
}

function ActionButton(props: { action: string; label: string; csrf: string; danger?: boolean }) {
  return (
    <form method="post" action={props.action}>
      <CsrfField token={props.csrf} />
      <button type="submit" class={props.danger ? 'danger' : undefined}>
        {props.label}
      </button>
    </form>
  );
}

function EndpointRow(props: { guild: GuildRecord; endpoint: WebhookEndpoint; csrf: string }) {
  const { endpoint: e } = props;
  const base = `/console/servers/${props.guild.id}/webhooks/${e.id}`;
  return (
    <tr data-endpoint-id={String(e.id)}>
      <td>
        <code>{e.url}</code>
      </td>
      <td>{e.events.length ? e.events.join(', ') : 'all events'}</td>
      <td>
        <EndpointState endpoint={e} />
      </td>
      <td class="actions">
        <a href={`${base}/deliveries`}>Deliveries</a>
        <ActionButton action={`${base}/test`} label="Send test event" csrf={props.csrf} />
        {e.enabled ? (
          <ActionButton action={`${base}/disable`} label="Disable" csrf={props.csrf} />
        ) : (
          <ActionButton action={`${base}/enable`} label="Enable" csrf={props.csrf} />
        )}
        <ActionButton action={`${base}/rotate-secret`} label="Rotate secret" csrf={props.csrf} />
        <a href={`${base}/remove`}>Remove…</a>
      </td>
    </tr>
  );
}

export function WebhooksPage(props: { viewer: Viewer; guild: GuildRecord; endpoints: WebhookEndpoint[]; eventTypes: readonly string[] }) {
  const { guild, viewer } = props;
  return (
    <Layout title="Webhook endpoints" viewer={viewer} server={nav(guild)}>
      <DataTable
        caption={<>Webhook endpoints of {guild.name}</>}
        columns={['URL', 'Events', 'State', 'Actions']}
        rows={props.endpoints}
        empty={{ name: 'endpoints', text: 'No webhook endpoint yet.' }}
        row={(e) => <EndpointRow guild={guild} endpoint={e} csrf={viewer.csrf} />}
      />
      <form method="post" action={`/console/servers/${guild.id}/webhooks`} class="card">
        <h2>Add an endpoint</h2>
        <CsrfField token={viewer.csrf} />
        <p>
          <label for="endpoint-url">URL</label>
          <input id="endpoint-url" name="url" type="url" required maxLength={2048} placeholder="https://example.com/hooks" />
        </p>
        <fieldset>
          <legend>Event types (none picked: every event)</legend>
          {props.eventTypes.map((t) => (
            <label class="check">
              <input type="checkbox" name="events" value={t} /> {t}
            </label>
          ))}
        </fieldset>
        <button type="submit">Add endpoint</button>
      </form>
    </Layout>
  );
}

export function SecretShownPage(props: { viewer: Viewer; guild: GuildRecord; endpoint: WebhookEndpoint; secret: string; created: boolean }) {
  const { guild } = props;
  return (
    <Layout title={props.created ? 'Endpoint added' : 'New signing secret'} viewer={props.viewer} server={nav(guild)}>
      <p>
        Endpoint <code>{props.endpoint.url}</code>: its receiver verifies every delivery's signature with this secret
        {props.created ? '.' : '; the old secret stopped signing now.'}
      </p>
      <SecretOnce label="Signing secret" value={props.secret} id="signing-secret" />
      <p>
        <a href={`/console/servers/${guild.id}/webhooks`}>Back to the webhook endpoints</a>
      </p>
    </Layout>
  );
}

export function RemoveEndpointPage(props: { viewer: Viewer; guild: GuildRecord; endpoint: WebhookEndpoint }) {
  const { guild, endpoint } = props;
  return (
    <Layout title="Remove this endpoint?" viewer={props.viewer} server={nav(guild)}>
      <p>
        No event will be sent to <code>{endpoint.url}</code> any more, and its outstanding deliveries stop.
      </p>
      <form method="post" action={`/console/servers/${guild.id}/webhooks/${endpoint.id}/remove`}>
        <CsrfField token={props.viewer.csrf} />
        <button type="submit" class="danger">
          Remove the endpoint
        </button>{' '}
        <a href={`/console/servers/${guild.id}/webhooks`}>Cancel</a>
      </form>
    </Layout>
  );
}
