import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { ShopItemRecord } from '../../../db/shop/items.js';
import type { StoreRecord } from '../../../db/shop/stores.js';
import type { ServerDirectory } from '../../../src/console/serverDirectory.js';
import { DataTable } from './dataTable.js';
import { ErrorSummary, FormFields, type FormState } from './formParts.js';
import { Layout, type Viewer } from './layout.js';
import { OlderLink } from './olderLink.js';
import { channelLabel } from './pickers.js';
import { ItemFields, ITEM_FIELDS, StockForm } from './shopItemForm.js';
import { itemPath, priceText, shopNav, shopPath, storeItemsPath, storeKey, type CurrencyName } from './shopParts.js';

const TYPE_TEXT = { role: 'role', color: 'colour role', item: 'item' } as const;
const channelName = (directory: ServerDirectory, id: string) => {
  const channel = directory.channels.find((c) => c.id === id);
  return channel ? channelLabel(channel) : `unknown channel ${id}`;
};
const roleName = (directory: ServerDirectory | undefined, id: string | null) => (id ? `@${directory?.roles.find((r) => r.id === id)?.name ?? id}` : '');

export function StoreItemsPage(props: {
  viewer: Viewer;
  guild: GuildRecord;
  store: StoreRecord | null;
  items: ShopItemRecord[];
  currency: CurrencyName;
  directory: ServerDirectory;
  olderHref: string | null;
}) {
  const { guild, store } = props;
  const name = store?.name ?? 'Main';
  return (
    <Layout title={`Items of ${name}`} viewer={props.viewer} server={shopNav(guild)}>
      <p>
        <a href={`${shopPath(guild.id)}/items/new?store=${storeKey(store?.id ?? null)}`}>New item</a>
        {' · '}
        <a href={shopPath(guild.id)}>All stores</a>
      </p>
      {store && <p data-store-channels>Channels: {store.channelIds.length === 0 ? 'none' : store.channelIds.map((id) => channelName(props.directory, id)).join(', ')}</p>}
      <DataTable
        caption={`Items of ${name}, in store order`}
        columns={['Item', 'Kind', 'Price', 'Stock', 'State', <span class="visually-hidden">Actions</span>]}
        rows={props.items}
        empty={{ name: 'items', text: 'No item in this store yet. Add one with "New item": a role, a colour role or a plain item.' }}
        row={(i) => (
          <tr data-item={String(i.id)}>
            <td>{i.name}</td>
            <td>
              {TYPE_TEXT[i.type]} {roleName(props.directory, i.roleId)}
              {i.durationSec > 0 && ` for ${i.durationSec} s`}
            </td>
            <td>{priceText(i.price, props.currency)}</td>
            <td>{i.stock ?? 'unlimited'}</td>
            <td>{i.enabled ? (i.hidden ? 'on sale, hidden' : 'on sale') : 'off'}</td>
            <td>
              <a href={itemPath(guild.id, i.id)} aria-label={`Edit ${i.name}`}>
                Edit
              </a>
            </td>
          </tr>
        )}
      />
      <OlderLink href={props.olderHref} label="More items" />
    </Layout>
  );
}

/** A new item (`item` undefined) in `storeId`, or an existing one with its stock and on/off forms. */
export function ItemFormPage(props: {
  viewer: Viewer;
  guild: GuildRecord;
  directory: ServerDirectory;
  stores: StoreRecord[];
  item?: ShopItemRecord;
  storeId: number | null;
  form?: FormState;
}) {
  const { guild, item } = props;
  const action = item ? itemPath(guild.id, item.id) : `${shopPath(guild.id)}/items`;
  const problem = props.form?.problem;
  // A stock form that came back carries only its own field: the item's form then shows the item.
  const itemForm = props.form?.values.has(ITEM_FIELDS.name) ? props.form : undefined;
  return (
    <Layout title={item ? `Item ${item.name}` : 'New item'} viewer={props.viewer} server={shopNav(guild)} hasErrors={!!problem}>
      <ErrorSummary problem={problem} />
      {item && (
        <p data-item-state={item.enabled ? 'on' : 'off'}>
          {item.enabled ? 'On sale.' : 'Off: not listed and not buyable.'}{' '}
          {item.enabled && <a href={`${itemPath(guild.id, item.id)}/disable`}>Take it off sale…</a>}
        </p>
      )}
      {item && !item.enabled && (
        <form method="post" action={`${itemPath(guild.id, item.id)}/enable`}>
          <FormFields viewer={props.viewer} action={`${itemPath(guild.id, item.id)}/enable`} />
          <button type="submit">Put it on sale</button>
        </form>
      )}
      {item && <StockForm viewer={props.viewer} guildId={guild.id} item={item} form={props.form?.values.has(ITEM_FIELDS.name) ? undefined : props.form} />}
      <form method="post" action={action}>
        {item && <h2>The item</h2>}
        <FormFields viewer={props.viewer} action={action} />
        <ItemFields directory={props.directory} stores={props.stores} item={item} storeId={props.storeId} form={itemForm} />
        <button type="submit">{item ? 'Save the item' : 'Create the item'}</button> <a href={storeItemsPath(guild.id, item?.storeId ?? props.storeId)}>Cancel</a>
      </form>
    </Layout>
  );
}

/** Taking an item off sale: members can no longer buy it, nor see it in the store; what they own stays theirs. */
export function DisableItemPage(props: { viewer: Viewer; guild: GuildRecord; item: ShopItemRecord }) {
  const { guild, item } = props;
  const action = `${itemPath(guild.id, item.id)}/disable`;
  return (
    <Layout title={`Take ${item.name} off sale?`} viewer={props.viewer} server={shopNav(guild)}>
      <p>Members can no longer see or buy {item.name}. Units already bought stay with their owners; you can put it on sale again later.</p>
      <form method="post" action={action}>
        <FormFields viewer={props.viewer} action={action} />
        <button type="submit" class="danger">
          Take it off sale
        </button>{' '}
        <a href={itemPath(guild.id, item.id)}>Cancel</a>
      </form>
    </Layout>
  );
}
