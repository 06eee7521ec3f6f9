import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { WebhookEndpoint } from '../../../src/webhooks/readEndpoints.js';
import { SecretOnce } from './keysPages.js';
import { CsrfField, isoTime, Layout, type Viewer } from './layout.js';
import { endpointPath, webhooksNav } from './webhookPages.js';

/** The confirmation before a rotation, with its overlap choice: receivers still holding the old secret fail without one. */
export function RotateSecretPage(props: { viewer: Viewer; guild: GuildRecord; endpoint: WebhookEndpoint }) {
  const { guild, endpoint } = props;
  const base = endpointPath(guild.id, endpoint.id);
  return (
    <Layout title="Rotate the signing secret?" viewer={props.viewer} server={webhooksNav(guild)}>
      <p>
        A new secret will sign every delivery to <code>{endpoint.url}</code>. It is shown once, on the next page.
      </p>
      <form method="post" action={`${base}/rotate-secret`} class="card">
        <CsrfField token={props.viewer.csrf} />
        <fieldset>
          <legend>The old secret</legend>
          <label class="check">
            <input type="radio" name="overlap" value="24h" checked /> keeps signing for 24 hours beside the new one: each
            delivery carries two signatures, so the receiver can switch to the new secret meanwhile
          </label>
          <label class="check">
            <input type="radio" name="overlap" value="now" /> stops now: <strong>receivers using the old secret fail from now on</strong>
          </label>
        </fieldset>
        <button type="submit" class="danger">
          Rotate the secret
        </button>{' '}
        <a href={base}>Cancel</a>
      </form>
    </Layout>
  );
}

export function SecretShownPage(props: { viewer: Viewer; guild: GuildRecord; endpoint: WebhookEndpoint; secret: string; created: boolean; previousUntil: Date | null }) {
  const { guild } = props;
  const after = props.created ? (
    '.'
  ) : props.previousUntil ? (
    <>; the old secret also signs until {isoTime(props.previousUntil)}.</>
  ) : (
    '; the old secret stopped signing now.'
  );
  return (
    <Layout title={props.created ? 'Endpoint added' : 'New signing secret'} viewer={props.viewer} server={webhooksNav(guild)}>
      <p>
        Endpoint <code>{props.endpoint.url}</code>: its receiver verifies every delivery's signature with this secret{after}
      </p>
      <SecretOnce label="Signing secret" value={props.secret} id="signing-secret" />
      <p>
        <a href={`/console/servers/${guild.id}/webhooks`}>Back to the webhook endpoints</a>
      </p>
    </Layout>
  );
}
