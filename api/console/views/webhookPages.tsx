import type { ComponentChildren } from 'preact';
import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { WebhookEndpoint } from '../../../src/webhooks/readEndpoints.js';
import type { EndpointHealth } from '../../../src/webhooks/readEndpointHealth.js';
import { DataTable } from './dataTable.js';
import { EndpointForm, EMPTY_ENDPOINT, type EndpointFormValues } from './endpointForm.js';
import { HealthSummary } from './endpointHealth.js';
import { FormFields, type FormProblem } from './formParts.js';
import { isoTime, Layout, type Viewer } from './layout.js';

export const webhooksNav = (guild: GuildRecord) => ({ id: guild.id, name: guild.name, active: 'webhooks' as const });
export const endpointPath = (guildId: string, endpointId: number) => `/console/servers/${guildId}/webhooks/${endpointId}`;

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

/** A one-button form; `label` names the endpoint for screen readers, whose row context is otherwise lost. */
export function ActionButton(props: { action: string; text: string; label: string; viewer: Viewer; danger?: boolean }) {
  return (
    <form method="post" action={props.action}>
      <FormFields viewer={props.viewer} action={props.action} />
      <button type="submit" class={props.danger ? 'danger' : undefined} aria-label={props.label}>
        {props.text}
      </button>
    </form>
  );
}

function EndpointRow(props: { guild: GuildRecord; endpoint: WebhookEndpoint; health: EndpointHealth | undefined; viewer: Viewer }) {
  const { endpoint: e } = props;
  const base = endpointPath(props.guild.id, e.id);
  return (
    <tr data-endpoint-id={String(e.id)}>
      <td>
        <a href={base}>
          <code>{e.url}</code>
        </a>
        {e.description && (
          <>
            <br />
            <span class="muted">{e.description}</span>
          </>
        )}
      </td>
      <td>{e.events.length ? e.events.join(', ') : 'all events'}</td>
      <td>
        <EndpointState endpoint={e} />
      </td>
      <td>
        <HealthSummary health={props.health} />
      </td>
      <td class="actions">
        <a href={`${base}/deliveries`} aria-label={`Deliveries of ${e.url}`}>
          Deliveries
        </a>{' '}
        <a href={`${base}/edit`} aria-label={`Edit ${e.url}`}>
          Edit
        </a>{' '}
        <a href={`${base}/test`} aria-label={`Send a test event to ${e.url}`}>
          Test…
        </a>{' '}
        {e.enabled ? (
          <a href={`${base}/disable`} aria-label={`Disable ${e.url}`}>
            Disable…
          </a>
        ) : (
          <ActionButton action={`${base}/enable`} text="Enable" label={`Enable ${e.url}`} viewer={props.viewer} />
        )}{' '}
        <a href={`${base}/rotate-secret`} aria-label={`Rotate the secret of ${e.url}`}>
          Rotate secret…
        </a>{' '}
        <a href={`${base}/remove`} aria-label={`Remove ${e.url}`}>
          Remove…
        </a>
      </td>
    </tr>
  );
}

export function WebhooksPage(props: {
  viewer: Viewer;
  guild: GuildRecord;
  endpoints: WebhookEndpoint[];
  health: Map<number, EndpointHealth>;
  eventTypes: readonly string[];
  /** The add form sent back with its problem, its input kept. */
  form?: { values: EndpointFormValues; problem: FormProblem };
}) {
  const { guild, viewer, form } = props;
  return (
    <Layout title="Webhook endpoints" viewer={viewer} server={webhooksNav(guild)} hasErrors={!!form}>
      <p>
        <a href={`/console/servers/${guild.id}/deliveries?status=failed`}>Failed deliveries of every endpoint</a> ·{' '}
        <a href={`/console/servers/${guild.id}/deliveries`}>Find a delivery</a>
      </p>
      <DataTable
        caption={<>Webhook endpoints of {guild.name}</>}
        columns={['URL', 'Events', 'State', 'Health', 'Actions']}
        rows={props.endpoints}
        empty={{ name: 'endpoints', text: 'No webhook endpoint yet.' }}
        row={(e) => <EndpointRow guild={guild} endpoint={e} health={props.health.get(e.id)} viewer={viewer} />}
      />
      <EndpointForm
        action={`/console/servers/${guild.id}/webhooks`}
        viewer={viewer}
        values={form?.values ?? EMPTY_ENDPOINT}
        problem={form?.problem}
        eventTypes={props.eventTypes}
        submit="Add endpoint"
      >
        <h2>Add an endpoint</h2>
      </EndpointForm>
    </Layout>
  );
}

/** A confirmation before a change that loses events or breaks the receiver: what happens, then the one button. */
export function ConfirmEndpointPage(props: {
  viewer: Viewer;
  guild: GuildRecord;
  endpoint: WebhookEndpoint;
  title: string;
  action: 'disable' | 'remove';
  button: string;
  children: ComponentChildren;
}) {
  const { guild, endpoint } = props;
  const base = endpointPath(guild.id, endpoint.id);
  return (
    <Layout title={props.title} viewer={props.viewer} server={webhooksNav(guild)}>
      {props.children}
      <form method="post" action={`${base}/${props.action}`}>
        <FormFields viewer={props.viewer} action={`${base}/${props.action}`} />
        <button type="submit" class="danger">
          {props.button}
        </button>{' '}
        <a href={`/console/servers/${guild.id}/webhooks`}>Cancel</a>
      </form>
    </Layout>
  );
}

export const RemoveEndpointPage = (props: { viewer: Viewer; guild: GuildRecord; endpoint: WebhookEndpoint }) => (
  <ConfirmEndpointPage {...props} title="Remove this endpoint?" action="remove" button="Remove the endpoint">
    <p>
      No event will be sent to <code>{props.endpoint.url}</code> any more, and its outstanding deliveries stop.
    </p>
  </ConfirmEndpointPage>
);

export const DisableEndpointPage = (props: { viewer: Viewer; guild: GuildRecord; endpoint: WebhookEndpoint }) => (
  <ConfirmEndpointPage {...props} title="Disable this endpoint?" action="disable" button="Disable the endpoint">
    <p>
      Nothing will be sent to <code>{props.endpoint.url}</code> while it is disabled, and its outstanding deliveries stop.
    </p>
    <p data-warning="lost-events">
      <strong>Events raised while it is disabled are never delivered</strong>, not even after you enable it again: they
      are not kept for it.
    </p>
  </ConfirmEndpointPage>
);
