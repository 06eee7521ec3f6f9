import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { WebhookEndpoint } from '../../../src/webhooks/readEndpoints.js';
import { FormFields } from './formParts.js';
import { Layout, type Viewer } from './layout.js';
import { endpointPath, webhooksNav } from './webhookPages.js';

/** Picks the type of a test event; a disabled endpoint gets the reason nothing can be sent instead of the form. */
export function TestEventPage(props: { viewer: Viewer; guild: GuildRecord; endpoint: WebhookEndpoint; eventTypes: readonly string[]; refusal?: string }) {
  const { guild, endpoint } = props;
  const base = endpointPath(guild.id, endpoint.id);
  return (
    <Layout title="Send a test event" viewer={props.viewer} server={webhooksNav(guild)}>
      <p>
        To <code>{endpoint.url}</code>, whatever event types it takes. <a href={base}>Back to the endpoint</a>
      </p>
      {props.refusal ? (
        <p class="error" role="alert" data-error="ENDPOINT_DISABLED">
          {props.refusal}
        </p>
      ) : (
        <form method="post" action={`${base}/test`} class="card">
          <FormFields viewer={props.viewer} action={`${base}/test`} />
          <p>
            <label for="test-type">Event type</label>
            <br />
            <select id="test-type" name="type">
              {props.eventTypes.map((t) => (
                <option value={t} selected={t === 'webhook.test'}>
                  {t}
                </option>
              ))}
            </select>
          </p>
          <p class="muted">
            Another type than webhook.test arrives as an event of that type with example data (ids of nobody, a new event id):
            make sure the receiver does not act on it as on a real change.
          </p>
          <button type="submit">Send the test event</button>
        </form>
      )}
    </Layout>
  );
}
