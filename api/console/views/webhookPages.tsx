import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { WebhookEndpoint } from '../../../db/webhooks/webhooks.js';
import { DataTable } from './dataTable.js';
import { ErrorSummary, FieldMessage, FormFields, invalidAttrs, type FormState } from './formParts.js';
import { CsrfField, isoTime, Layout, type Viewer } from './layout.js';
import { SecretOnce } from './secretOnce.js';

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

function ActionButton(props: { action: string; label: string; viewer: Viewer; danger?: boolean }) {
  return (
    <form method="post" action={props.action}>
      <FormFields viewer={props.viewer} action={props.action} />
      <button type="submit" class={props.danger ? 'danger' : undefined}>
        {props.label}
      </button>
    </form>
  );
}

function EndpointRow(props: { guild: GuildRecord; endpoint: WebhookEndpoint; viewer: Viewer }) {
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
        <ActionButton action={`${base}/test`} label="Send test event" viewer={props.viewer} />
        {e.enabled ? (
          <ActionButton action={`${base}/disable`} label="Disable" viewer={props.viewer} />
        ) : (
          <ActionButton action={`${base}/enable`} label="Enable" viewer={props.viewer} />
        )}
        <ActionButton action={`${base}/rotate-secret`} label="Rotate secret" viewer={props.viewer} />
        <a href={`${base}/remove`}>Remove…</a>
      </td>
    </tr>
  );
}

/** The ids the add form's fields carry (the error summary links to them). */
export const ENDPOINT_FIELDS = { url: 'endpoint-url', events: 'endpoint-events' } as const;

export function WebhooksPage(props: { viewer: Viewer; guild: GuildRecord; endpoints: WebhookEndpoint[]; eventTypes: readonly string[]; form?: FormState }) {
  const { guild, viewer } = props;
  const action = `/console/servers/${guild.id}/webhooks`;
  const values = props.form?.values;
  const problem = props.form?.problem;
  const picked = new Set(values?.getAll('events') ?? []);
  return (
    <Layout title="Webhook endpoints" viewer={viewer} server={nav(guild)} hasErrors={!!problem}>
      <ErrorSummary problem={problem} />
      <DataTable
        caption={<>Webhook endpoints of {guild.name}</>}
        columns={['URL', 'Events', 'State', 'Actions']}
        rows={props.endpoints}
        empty={{ name: 'endpoints', text: 'No webhook endpoint yet.' }}
        row={(e) => <EndpointRow guild={guild} endpoint={e} viewer={viewer} />}
      />
      <form method="post" action={action} class="card" noValidate>
        <h2>Add an endpoint</h2>
        <FormFields viewer={viewer} action={action} />
        <p>
          <label for={ENDPOINT_FIELDS.url}>URL</label>
          <FieldMessage problem={problem} field={ENDPOINT_FIELDS.url} />
          <input
            id={ENDPOINT_FIELDS.url}
            name="url"
            type="url"
            required
            maxLength={2048}
            placeholder="https://example.com/hooks"
            value={values?.get('url') ?? ''}
            {...invalidAttrs(problem, ENDPOINT_FIELDS.url)}
          />
        </p>
        <fieldset {...invalidAttrs(problem, ENDPOINT_FIELDS.events, true)}>
          <legend>Event types (none picked: every event)</legend>
          <FieldMessage problem={problem} field={ENDPOINT_FIELDS.events} />
          {props.eventTypes.map((t, i) => (
            <label class="check">
              <input type="checkbox" name="events" value={t} checked={picked.has(t)} id={i === 0 ? ENDPOINT_FIELDS.events : undefined} /> {t}
            </label>
          ))}
        </fieldset>
        <button type="submit">Add endpoint</button>
      </form>
    </Layout>
  );
}

/**
 * The result page of adding an endpoint or rotating its secret (after the redirect): the secret the first time it
 * opens (`shown`, kept for it by the POST), a note that it was shown after that.
 */
export function SecretShownPage(props: { viewer: Viewer; guild: GuildRecord; endpoint: WebhookEndpoint; shown?: { secret: string; created: boolean } }) {
  const { guild, shown } = props;
  return (
    <Layout title={!shown ? 'Signing secret' : shown.created ? 'Endpoint added' : 'New signing secret'} viewer={props.viewer} server={nav(guild)}>
      {shown && (
        <p>
          Endpoint <code>{props.endpoint.url}</code>: its receiver verifies every delivery's signature with this secret
          {shown.created ? '.' : '; the old secret stopped signing now.'}
        </p>
      )}
      <SecretOnce
        label="Signing secret"
        value={shown?.secret}
        id="signing-secret"
        gone={
          <>
            The signing secret of <code>{props.endpoint.url}</code> was shown once, when this page first opened, and cannot be shown again. If
            you did not store it, rotate the secret.
          </>
        }
      />
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
