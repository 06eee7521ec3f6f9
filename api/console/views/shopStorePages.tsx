import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { StoreRecord } from '../../../db/shop/stores.js';
import type { DirectoryChannel, ServerDirectory } from '../../../src/console/serverDirectory.js';
import { DataTable } from './dataTable.js';
import { CheckField, TextField } from './fields.js';
import { ErrorSummary, FormFields, type FormState } from './formParts.js';
import { Layout, type Viewer } from './layout.js';
import { OlderLink } from './olderLink.js';
import { ChannelsPicker } from './pickers.js';
import { shopNav, shopPath, storeItemsPath } from './shopParts.js';

/** The ids (and names) of the store form's fields; the error summary links to them. */
export const STORE_FIELDS = {
  name: 'store-name',
  emoji: 'store-emoji',
  description: 'store-description',
  color: 'store-color',
  enabled: 'store-enabled',
  sort: 'store-sort',
  channels: 'store-channels',
} as const;

/** The channels a store may be shown in: text channels, where members use the shop. */
export const STORE_CHANNEL_TYPES: ReadonlyArray<DirectoryChannel['type']> = ['text', 'announcement'];

type StoreRow = { id: number | null; name: string; enabled: boolean; itemCount: number };

export function StoresPage(props: { viewer: Viewer; guild: GuildRecord; stores: StoreRecord[]; counts: Map<number | null, number>; mainCount: number | null; olderHref: string | null }) {
  const { guild } = props;
  // Main has no row: it heads the first page only.
  const rows: StoreRow[] = [
    ...(props.mainCount === null ? [] : [{ id: null, name: 'Main', enabled: true, itemCount: props.mainCount }]),
    ...props.stores.map((s) => ({ id: s.id, name: s.name, enabled: s.enabled, itemCount: props.counts.get(s.id) ?? 0 })),
  ];
  return (
    <Layout title="Shop" viewer={props.viewer} server={shopNav(guild)}>
      <p>
        Members buy items with their bank balance. The Main store always exists; other stores group items.{' '}
        <a href={`${shopPath(guild.id)}/stores/new`}>New store</a>
        {' · '}
        <a href={`${shopPath(guild.id)}/purchases`}>Purchases and refunds</a>
      </p>
      <DataTable
        caption="Stores"
        columns={['Store', 'State', 'Items on sale', <span class="visually-hidden">Actions</span>]}
        rows={rows}
        empty={{ name: 'stores', text: 'No other store yet.' }}
        row={(s) => (
          <tr data-store={s.id === null ? 'main' : String(s.id)}>
            <td>{s.name}</td>
            <td>{s.enabled ? 'open' : 'closed'}</td>
            <td>{s.itemCount}</td>
            <td>
              <a href={storeItemsPath(guild.id, s.id)} aria-label={`Items of ${s.name}`}>
                Items
              </a>
              {s.id !== null && (
                <>
                  {' · '}
                  <a href={`${shopPath(guild.id)}/stores/${s.id}`} aria-label={`Edit store ${s.name}`}>
                    Edit
                  </a>
                </>
              )}
            </td>
          </tr>
        )}
      />
      <OlderLink href={props.olderHref} label="More stores" />
    </Layout>
  );
}

/** A new store (`store` undefined) or an existing one; a form that came back shows what was sent. */
export function StoreFormPage(props: { viewer: Viewer; guild: GuildRecord; directory: ServerDirectory; store?: StoreRecord; form?: FormState }) {
  const { guild, store } = props;
  const action = store ? `${shopPath(guild.id)}/stores/${store.id}` : `${shopPath(guild.id)}/stores`;
  const problem = props.form?.problem;
  const sent = props.form?.values;
  const text = (field: string, value: string | null | undefined) => (sent ? (sent.get(field) ?? '') : (value ?? ''));
  return (
    <Layout title={store ? `Store ${store.name}` : 'New store'} viewer={props.viewer} server={shopNav(guild)} hasErrors={!!problem}>
      <ErrorSummary problem={problem} />
      <form method="post" action={action}>
        <FormFields viewer={props.viewer} action={action} />
        <TextField name={STORE_FIELDS.name} label="Name" hint="1 to 100 characters." value={text(STORE_FIELDS.name, store?.name)} maxLength={100} problem={problem} />
        <TextField name={STORE_FIELDS.emoji} label="Emoji (optional)" value={text(STORE_FIELDS.emoji, store?.emoji)} maxLength={64} problem={problem} />
        <TextField name={STORE_FIELDS.description} label="Description (optional)" hint="Up to 500 characters." value={text(STORE_FIELDS.description, store?.description)} maxLength={500} problem={problem} />
        <TextField name={STORE_FIELDS.color} label="Colour (optional)" hint="Like #5865F2." value={text(STORE_FIELDS.color, store?.color)} maxLength={7} problem={problem} />
        <TextField numeric name={STORE_FIELDS.sort} label="Position" hint="0 comes first, up to 10,000." value={text(STORE_FIELDS.sort, String(store?.sortOrder ?? 0))} problem={problem} />
        <ChannelsPicker
          name={STORE_FIELDS.channels}
          label="Channels (optional)"
          hint="Where the store is shown; at most 25."
          directory={props.directory}
          types={STORE_CHANNEL_TYPES}
          selected={sent ? sent.getAll(STORE_FIELDS.channels) : (store?.channelIds ?? [])}
          problem={problem}
        />
        <CheckField name={STORE_FIELDS.enabled} label="Open: members can buy here" checked={sent ? sent.get(STORE_FIELDS.enabled) === 'on' : (store?.enabled ?? true)} />
        <button type="submit">{store ? 'Save the store' : 'Create the store'}</button> <a href={shopPath(guild.id)}>Cancel</a>
      </form>
    </Layout>
  );
}
