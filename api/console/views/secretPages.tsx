import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { WebhookEndpoint } from '../../../src/webhooks/readEndpoints.js';
import { FormFields } from './formParts.js';
import { isoTime, Layout, type Viewer } from './layout.js';
import { SecretOnce } from './secretOnce.js';
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
        <FormFields viewer={props.viewer} action={`${base}/rotate-secret`} />
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

/** What the add or rotation POST kept for its result page: the secret, once. */
export interface ShownSecret {
  secret: string;
  created: boolean;
  /** After a rotation with an overlap: until when the old secret also signs. */
  previousUntil: Date | null;
}

/**
 * The result page of adding an endpoint or rotating its secret (after the redirect): the secret the first time it
 * opens (`shown`, kept for it by the POST), a note that it was shown after that.
 */
export function SecretShownPage(props: { viewer: Viewer; guild: GuildRecord; endpoint: WebhookEndpoint; shown?: ShownSecret }) {
  const { guild, shown } = props;
  const after = !shown || shown.created ? (
    '.'
  ) : shown.previousUntil ? (
    <>; the old secret also signs until {isoTime(shown.previousUntil)}.</>
  ) : (
    '; the old secret stopped signing now.'
  );
  return (
    <Layout title={!shown ? 'Signing secret' : shown.created ? 'Endpoint added' : 'New signing secret'} viewer={props.viewer} server={webhooksNav(guild)}>
      {shown && (
        <p>
          Endpoint <code>{props.endpoint.url}</code>: its receiver verifies every delivery's signature with this secret{after}
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
