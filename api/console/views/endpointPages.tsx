import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { WebhookEndpoint } from '../../../src/webhooks/readEndpoints.js';
import type { EndpointHealth, HourOfAttempts } from '../../../src/webhooks/readEndpointHealth.js';
import { AttemptChart } from './attemptChart.js';
import { EndpointForm, type EndpointFormValues } from './endpointForm.js';
import type { FormProblem } from './formParts.js';
import { HealthSummary } from './endpointHealth.js';
import { isoTime, Layout, type Viewer } from './layout.js';
import { ActionButton, EndpointState, endpointPath, webhooksNav } from './webhookPages.js';

/** Whether a rotation's previous secret still signs beside the current one, and until when. */
function SecretState({ endpoint, now }: { endpoint: WebhookEndpoint; now: Date }) {
  const until = endpoint.previousSecretExpiresAt;
  if (until && until > now) {
    return <span data-secret-overlap={until.toISOString()}>the previous secret also signs until {isoTime(until)}</span>;
  }
  return <span data-secret-overlap="none">one secret signs</span>;
}

/** One endpoint: its settings, health, attempts per hour, and every action on it. */
export function EndpointPage(props: { viewer: Viewer; guild: GuildRecord; endpoint: WebhookEndpoint; health: EndpointHealth | undefined; hours: HourOfAttempts[]; now: Date }) {
  const { guild, endpoint: e } = props;
  const base = endpointPath(guild.id, e.id);
  return (
    <Layout title="Webhook endpoint" viewer={props.viewer} server={webhooksNav(guild)}>
      <p>
        <a href={`/console/servers/${guild.id}/webhooks`}>All endpoints</a>
      </p>
      <dl>
        <dt>URL</dt>
        <dd>
          <code data-endpoint-url>{e.url}</code>
        </dd>
        <dt>Description</dt>
        <dd data-description>{e.description ?? <span class="muted">none</span>}</dd>
        <dt>Event types</dt>
        <dd>{e.events.length ? e.events.join(', ') : 'all events'}</dd>
        <dt>State</dt>
        <dd>
          <EndpointState endpoint={e} />
        </dd>
        <dt>Signing secret</dt>
        <dd>
          <SecretState endpoint={e} now={props.now} />
        </dd>
        <dt>Health</dt>
        <dd>
          <HealthSummary health={props.health} />
        </dd>
        <dt>Added</dt>
        <dd>{isoTime(e.createdAt)}</dd>
      </dl>
      <p class="actions">
        <a href={`${base}/deliveries`}>Deliveries</a> · <a href={`${base}/edit`}>Edit</a> · <a href={`${base}/test`}>Send a test event…</a> ·{' '}
        <a href={`${base}/recover`}>Recover failed deliveries…</a> · <a href={`${base}/rotate-secret`}>Rotate secret…</a> ·{' '}
        {e.enabled && (
          <>
            <a href={`${base}/disable`}>Disable…</a> ·{' '}
          </>
        )}
        <a href={`${base}/remove`}>Remove…</a>
      </p>
      {!e.enabled && <ActionButton action={`${base}/enable`} text="Enable" label={`Enable ${e.url}`} viewer={props.viewer} />}
      <h2>Attempts per hour</h2>
      <AttemptChart hours={props.hours} />
    </Layout>
  );
}

export function EditEndpointPage(props: {
  viewer: Viewer;
  guild: GuildRecord;
  endpoint: WebhookEndpoint;
  values: EndpointFormValues;
  problem?: FormProblem;
  eventTypes: readonly string[];
}) {
  const { guild, endpoint } = props;
  const base = endpointPath(guild.id, endpoint.id);
  return (
    <Layout title="Edit the endpoint" viewer={props.viewer} server={webhooksNav(guild)} hasErrors={!!props.problem}>
      <p>
        The endpoint keeps its signing secret, state and deliveries. Attempts still to come go to the new URL; events
        raised from now on follow the new event types. <a href={base}>Back to the endpoint</a>
      </p>
      <EndpointForm action={`${base}/edit`} viewer={props.viewer} values={props.values} problem={props.problem} eventTypes={props.eventTypes} submit="Save changes" />
    </Layout>
  );
}
