import type { ApiKeyRecord } from '../../../db/keys/apiKeys.js';
import type { KeyView } from '../../../src/keys/readKeys.js';
import type { GuildRecord } from '../../../db/guild/guilds.js';
import { DataTable } from './dataTable.js';
import { ErrorSummary, FormFields, type FormState } from './formParts.js';
import { CreateKeyForm } from './keyForm.js';
import { isoTime, Layout, type Viewer } from './layout.js';
import { SecretOnce } from './secretOnce.js';

const keyState = (k: ApiKeyRecord, now: Date) => (k.revokedAt ? 'revoked' : k.expiresAt && k.expiresAt <= now ? 'expired' : 'active');

function KeyRow({ guild, apiKey: k, now }: { guild: GuildRecord; apiKey: KeyView; now: Date }) {
  const state = keyState(k, now);
  return (
    <tr data-key-id={String(k.id)}>
      <td>{k.name}</td>
      <td>
        <code>{k.prefix}…</code>
      </td>
      <td>{k.scopes.join(', ')}</td>
      <td>{k.createdBy ?? '—'}</td>
      <td>{isoTime(k.createdAt)}</td>
      <td>{k.expiresAt ? isoTime(k.expiresAt) : 'never'}</td>
      <td data-last-used>{k.lastUsedAt ? isoTime(k.lastUsedAt) : 'never'}</td>
      <td data-state={state}>
        {state}
        {k.revokedAt && <> {isoTime(k.revokedAt)}</>}
      </td>
      <td>
        {state === 'active' && (
          <a href={`/console/servers/${guild.id}/keys/${k.id}/revoke`} aria-label={`Revoke ${k.name}`}>
            Revoke…
          </a>
        )}
      </td>
    </tr>
  );
}

export function KeysPage(props: {
  viewer: Viewer;
  guild: GuildRecord;
  keys: KeyView[];
  now: Date;
  scopes: readonly string[];
  expiryDays: readonly number[];
  /** The create form as sent, when it came back with a problem. */
  form?: FormState;
}) {
  const { guild } = props;
  return (
    <Layout title="API keys" viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: 'keys' }} hasErrors={!!props.form?.problem}>
      <ErrorSummary problem={props.form?.problem} />
      <DataTable
        caption={<>API keys of {guild.name}</>}
        columns={['Name', 'Prefix', 'Scopes', 'Created by', 'Created', 'Expires', 'Last used', 'State', <span class="visually-hidden">Actions</span>]}
        rows={props.keys}
        empty={{ name: 'keys', text: 'No API key yet.' }}
        row={(k) => <KeyRow guild={guild} apiKey={k} now={props.now} />}
      />
      <CreateKeyForm guild={guild} viewer={props.viewer} scopes={props.scopes} expiryDays={props.expiryDays} form={props.form} />
    </Layout>
  );
}

/** The result of creating a key: its secret the first time the page opens, a note that it was shown after that. */
export function KeyCreatedPage(props: { viewer: Viewer; guild: GuildRecord; key: ApiKeyRecord; secret: string | undefined }) {
  const { guild, key } = props;
  return (
    <Layout title={`Key "${key.name}" created`} viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: 'keys' }}>
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
