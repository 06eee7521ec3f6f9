import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { WebhookEndpoint } from '../../../src/webhooks/readEndpoints.js';
import { FormFields } from './formParts.js';
import { Layout, type Viewer } from './layout.js';
import { endpointPath, webhooksNav } from './webhookPages.js';

/** "Recover everything that failed since": the time, then one button. `since` is the suggested start (UTC). */
export function RecoverPage(props: { viewer: Viewer; guild: GuildRecord; endpoint: WebhookEndpoint; since: string }) {
  const { guild, endpoint } = props;
  const base = endpointPath(guild.id, endpoint.id);
  return (
    <Layout title="Recover failed deliveries" viewer={props.viewer} server={webhooksNav(guild)}>
      <p>
        Every delivery to <code>{endpoint.url}</code> created since the time below that failed (all its attempts) or was
        cancelled (the endpoint was off) gets one more round of attempts, once: a delivery already being retried is left
        as it is. Events raised while the endpoint was disabled have no delivery and cannot be recovered.
      </p>
      {endpoint.enabled ? (
        <form method="post" action={`${base}/recover`} class="card">
          <FormFields viewer={props.viewer} action={`${base}/recover`} />
          <p>
            <label for="recover-since">Since (UTC)</label>
            <br />
            <input id="recover-since" name="since" type="datetime-local" required value={props.since} />
          </p>
          <button type="submit">Recover failed deliveries</button> <a href={base}>Cancel</a>
        </form>
      ) : (
        <p class="error" role="alert" data-error="ENDPOINT_DISABLED">
          The endpoint is disabled: enable it first, or the recovered deliveries would be cancelled at once.
        </p>
      )}
    </Layout>
  );
}
