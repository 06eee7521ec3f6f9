import type { ApiKeyRecord } from '../../../db/keys/apiKeys.js';
import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { KeyRow, KeysOverview } from '../../../src/console/keysOverview.js';
import { DataTable } from './dataTable.js';
import { ErrorSummary, FormFields, type FormState } from './formParts.js';
import { CreateKeyForm } from './keyForm.js';
import { expiryWarning, KeyTableRow, keyState } from './keyRows.js';
import { isoTime, Layout, type Viewer } from './layout.js';
import { SecretOnce } from './secretOnce.js';

/** The list's notice of keys that need attention: ending within a week, or expired without a replacement. */
function ExpiryNotice({ keys, now }: { keys: KeyRow[]; now: Date }) {
  const soon = keys.filter((k) => expiryWarning(k, now) === 'expires-soon').length;
  const expired = keys.filter((k) => expiryWarning(k, now) === 'expired').length;
  if (soon + expired === 0) return null;
  return (
    <p class="notice warning" data-expiry-notice>
      {soon > 0 && <>{soon === 1 ? 'One key expires' : `${soon} keys expire`} within 7 days: roll them before they stop working. </>}
      {expired > 0 && <>{expired === 1 ? 'One key has expired' : `${expired} keys have expired`}: requests with it are refused.</>}
    </p>
  );
}

/** Keys that can be rolled now: active, not replaced, and not the replacement of a key that still works. */
function rollableKeys(keys: KeyRow[], now: Date): Set<number> {
  const overlapping = new Set(keys.filter((k) => expiryWarning(k, now) === 'rolled').map((k) => k.rolledInto!));
  return new Set(keys.filter((k) => keyState(k, now) === 'active' && k.rolledInto === null && !overlapping.has(k.id)).map((k) => k.id));
}

export function KeysPage(props: {
  viewer: Viewer;
  guild: GuildRecord;
  overview: KeysOverview;
  now: Date;
  scopes: readonly string[];
  expiryDays: readonly number[];
  /** The create form as sent, when it came back with a problem. */
  form?: FormState;
}) {
  const { guild, now, overview } = props;
  const rollable = rollableKeys(overview.keys, now);
  return (
    <Layout title="API keys" viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: 'keys' }} hasErrors={!!props.form?.problem}>
      <ErrorSummary problem={props.form?.problem} />
      <ExpiryNotice keys={overview.keys} now={now} />
      <DataTable
        caption={<>API keys of {guild.name}</>}
        columns={['Name', 'Prefix', 'Scopes', 'Created by', 'Created', 'Expires', 'Last used', 'State', <span class="visually-hidden">Actions</span>]}
        rows={overview.keys}
        empty={{ name: 'keys', text: 'No API key yet.' }}
        row={(k) => <KeyTableRow guild={guild} apiKey={k} now={now} rollable={rollable.has(k.id)} />}
      />
      <CreateKeyForm
        guild={guild}
        viewer={props.viewer}
        scopes={props.scopes}
        expiryDays={props.expiryDays}
        count={{ active: overview.active, limit: overview.limit }}
        form={props.form}
      />
    </Layout>
  );
}

/** What a rolled key's result page says of the key it replaces. */
interface Replaced {
  prefix: string;
  until: Date;
}

/**
 * The result of creating or rolling a key: its secret the first time the page opens, a note that it was shown
 * after that.
 */
export function KeyCreatedPage(props: { viewer: Viewer; guild: GuildRecord; key: ApiKeyRecord; secret: string | undefined; replaced?: Replaced }) {
  const { guild, key, replaced } = props;
  return (
    <Layout title={`Key "${key.name}" ${replaced ? 'rolled' : 'created'}`} viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: 'keys' }}>
      <SecretOnce
        label="Your new API key"
        value={props.secret}
        id="new-key"
        gone={
          <>
            The key <code>{key.prefix}…</code> was shown once, when this page first opened, and cannot be shown again. If you did not store
            it, revoke this key and create another.
          </>
        }
      />
      {replaced && (
        <p data-replaces>
          It replaces the key <code>{replaced.prefix}…</code>, which keeps working until {isoTime(replaced.until)} and is refused after that.
        </p>
      )}
      <p>
        Scopes: {key.scopes.join(', ')}. Expires: {key.expiresAt ? isoTime(key.expiresAt) : 'never'}.
      </p>
      <p>
        <a href={`/console/servers/${guild.id}/keys`}>Back to the API keys</a>
      </p>
    </Layout>
  );
}

export function RevokeKeyPage(props: { viewer: Viewer; guild: GuildRecord; key: ApiKeyRecord }) {
  const { guild, key } = props;
  return (
    <Layout title={`Revoke "${key.name}"?`} viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: 'keys' }}>
      <p>
        Every request made with the key <code>{key.prefix}…</code> is refused from the moment you confirm. This cannot be undone.
      </p>
      <form method="post" action={`/console/servers/${guild.id}/keys/${key.id}/revoke`}>
        <FormFields viewer={props.viewer} action={`/console/servers/${guild.id}/keys/${key.id}/revoke`} />
        <button type="submit" class="danger">
          Revoke the key
        </button>{' '}
        <a href={`/console/servers/${guild.id}/keys`}>Cancel</a>
      </form>
    </Layout>
  );
}
