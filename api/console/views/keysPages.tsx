import type { ApiKeyRecord } from '../../../db/keys/apiKeys.js';
import type { KeyView } from '../../../src/keys/readKeys.js';
import type { GuildRecord } from '../../../db/guild/guilds.js';
import { DataTable } from './dataTable.js';
import { CsrfField, isoTime, Layout, type Viewer } from './layout.js';

const keyState = (k: ApiKeyRecord, now: Date) => (k.revokedAt ? 'revoked' : k.expiresAt && k.expiresAt <= now ? 'expired' : 'active');

/** Scopes grouped by their area (the part before the colon), as the create form shows them. */
export function groupScopes(scopes: readonly string[]): Array<[string, string[]]> {
  const groups = new Map<string, string[]>();
  for (const s of scopes) {
    const area = s.split(':')[0]!;
    groups.set(area, [...(groups.get(area) ?? []), s]);
  }
  return [...groups];
}

function CreateKeyForm(props: { guild: GuildRecord; viewer: Viewer; scopes: readonly string[]; expiryDays: readonly number[] }) {
  return (
    <form method="post" action={`/console/servers/${props.guild.id}/keys`} class="card">
      <h2>Create a key</h2>
      <CsrfField token={props.viewer.csrf} />
      <p>
        <label for="key-name">Name</label>
        <input id="key-name" name="name" required maxLength={100} autocomplete="off" />
      </p>
      <fieldset>
        <legend>Scopes</legend>
        {groupScopes(props.scopes).map(([area, scopes]) => (
          <fieldset class="scope-group">
            <legend>{area}</legend>
            {scopes.map((s) => (
              <label class="check">
                <input type="checkbox" name="scopes" value={s} /> {s}
              </label>
            ))}
          </fieldset>
        ))}
      </fieldset>
      <fieldset>
        <legend>Expires</legend>
        {props.expiryDays.map((d) => (
          <label class="check">
            <input type="radio" name="expires" value={String(d)} /> in {d} days
          </label>
        ))}
        <label class="check">
          <input type="radio" name="expires" value="never" checked /> never
        </label>
      </fieldset>
      <button type="submit">Create key</button>
    </form>
  );
}

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
}) {
  const { guild } = props;
  return (
    <Layout title="API keys" viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: 'keys' }}>
      <DataTable
        caption={<>API keys of {guild.name}</>}
        columns={['Name', 'Prefix', 'Scopes', 'Created by', 'Created', 'Expires', 'Last used', 'State', <span class="visually-hidden">Actions</span>]}
        rows={props.keys}
        empty={{ name: 'keys', text: 'No API key yet.' }}
        row={(k) => <KeyRow guild={guild} apiKey={k} now={props.now} />}
      />
      <CreateKeyForm guild={guild} viewer={props.viewer} scopes={props.scopes} expiryDays={props.expiryDays} />
    </Layout>
  );
}

/** A secret shown once, with a copy button (console.js; without JavaScript the field is still selectable). */
export function SecretOnce(props: { label: string; value: string; id: string }) {
  return (
    <div class="secret">
      <label for={props.id}>{props.label}</label>
      <input id={props.id} value={props.value} readOnly spellcheck={false} autocomplete="off" data-secret />
      <button type="button" data-copy={props.id}>
        Copy
      </button>
      <p role="status" class="muted" data-copied-for={props.id}></p>
      <p>This is the only time it is shown: store it now.</p>
    </div>
  );
}

export function KeyCreatedPage(props: { viewer: Viewer; guild: GuildRecord; key: ApiKeyRecord & { key: string } }) {
  const { guild, key } = props;
  return (
    <Layout title={`Key "${key.name}" created`} viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: 'keys' }}>
      <SecretOnce label="Your new API key" value={key.key} id="new-key" />
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
        <CsrfField token={props.viewer.csrf} />
        <button type="submit" class="danger">
          Revoke the key
        </button>{' '}
        <a href={`/console/servers/${guild.id}/keys`}>Cancel</a>
      </form>
    </Layout>
  );
}
