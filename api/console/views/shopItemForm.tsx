import type { ShopItemRecord } from '../../../db/shop/items.js';
import type { StoreRecord } from '../../../db/shop/stores.js';
import type { ServerDirectory } from '../../../src/console/serverDirectory.js';
import { CheckField, TextField } from './fields.js';
import { FieldMessage, FormFields, invalidAttrs, type FormState } from './formParts.js';
import type { Viewer } from './layout.js';
import { RolePicker } from './pickers.js';
import { itemPath } from './shopParts.js';

/** The ids (and names) of the item form's fields; the error summary links to them. */
export const ITEM_FIELDS = {
  name: 'item-name',
  description: 'item-description',
  emoji: 'item-emoji',
  price: 'item-price',
  type: 'item-type',
  role: 'item-role',
  duration: 'item-duration',
  stock: 'item-stock',
  limit: 'item-limit',
  minLevel: 'item-min-level',
  store: 'item-store',
  hidden: 'item-hidden',
  sort: 'item-sort',
} as const;

const TYPES = [
  ['item', 'An item (staff deliver it, or it is just owned)'],
  ['role', 'A role'],
  ['color', 'A colour role (a member holds one shop colour at a time)'],
] as const;

const count = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

/** The item's fields; `item` undefined is a new item in `storeId`, whose form also sets the stock. */
export function ItemFields(props: { directory: ServerDirectory; stores: StoreRecord[]; item?: ShopItemRecord; storeId: number | null; form?: FormState }) {
  const { item, form } = props;
  const problem = form?.problem;
  const sent = form?.values;
  const v = (field: string, value: string) => (sent ? (sent.get(field) ?? '') : value);
  const type = v(ITEM_FIELDS.type, item?.type ?? 'item');
  const store = v(ITEM_FIELDS.store, count(item ? item.storeId : props.storeId));
  return (
    <>
      <TextField name={ITEM_FIELDS.name} label="Name" hint="1 to 100 characters." value={v(ITEM_FIELDS.name, item?.name ?? '')} maxLength={100} problem={problem} />
      <TextField name={ITEM_FIELDS.description} label="Description (optional)" hint="Up to 500 characters." value={v(ITEM_FIELDS.description, item?.description ?? '')} maxLength={500} problem={problem} />
      <TextField name={ITEM_FIELDS.emoji} label="Emoji (optional)" value={v(ITEM_FIELDS.emoji, item?.emoji ?? '')} maxLength={64} problem={problem} />
      <TextField numeric name={ITEM_FIELDS.price} label="Price" hint="0 to 1,000,000,000,000 in the server's currency." value={v(ITEM_FIELDS.price, count(item?.price))} problem={problem} />
      <p>
        <label for={ITEM_FIELDS.type}>Kind</label>
        <FieldMessage problem={problem} field={ITEM_FIELDS.type} />
        <select id={ITEM_FIELDS.type} name={ITEM_FIELDS.type} {...invalidAttrs(problem, ITEM_FIELDS.type)}>
          {TYPES.map(([value, label]) => (
            <option value={value} selected={type === value}>
              {label}
            </option>
          ))}
        </select>
      </p>
      <RolePicker
        name={ITEM_FIELDS.role}
        label="Role given"
        hint="Needed for a role or colour role."
        directory={props.directory}
        selected={v(ITEM_FIELDS.role, item?.roleId ?? '')}
        none="No role"
        problem={problem}
      />
      <TextField numeric name={ITEM_FIELDS.duration} label="Timed role: seconds it lasts" hint="0 keeps it; 86400 is a day, up to 31,536,000 (a year)." value={v(ITEM_FIELDS.duration, count(item?.durationSec ?? 0))} problem={problem} />
      {!item && <TextField numeric name={ITEM_FIELDS.stock} label="Stock" hint="Units for sale, 0 to 1,000,000; empty is unlimited." value={v(ITEM_FIELDS.stock, '')} problem={problem} />}
      <TextField numeric name={ITEM_FIELDS.limit} label="Most units one member may have" hint="Empty is no limit." value={v(ITEM_FIELDS.limit, count(item?.perUserLimit))} problem={problem} />
      <TextField numeric name={ITEM_FIELDS.minLevel} label="Lowest level that may buy it" hint="0 to 1,000." value={v(ITEM_FIELDS.minLevel, count(item?.minLevel ?? 0))} problem={problem} />
      <p>
        <label for={ITEM_FIELDS.store}>Store</label>
        <FieldMessage problem={problem} field={ITEM_FIELDS.store} />
        <select id={ITEM_FIELDS.store} name={ITEM_FIELDS.store} {...invalidAttrs(problem, ITEM_FIELDS.store)}>
          <option value="">Main</option>
          {props.stores.map((s) => (
            <option value={String(s.id)} selected={store === String(s.id)}>
              {s.name}
            </option>
          ))}
        </select>
      </p>
      <TextField numeric name={ITEM_FIELDS.sort} label="Position in the store" hint="0 comes first, up to 10,000." value={v(ITEM_FIELDS.sort, count(item?.sortOrder ?? 0))} problem={problem} />
      <CheckField name={ITEM_FIELDS.hidden} label="Hidden: not shown in the store, but can be bought" checked={sent ? sent.get(ITEM_FIELDS.hidden) === 'on' : (item?.hidden ?? false)} />
    </>
  );
}

/** Restocking: the API's PATCH of `stock` (empty is unlimited). */
export function StockForm(props: { viewer: Viewer; guildId: string; item: ShopItemRecord; form?: FormState }) {
  const action = `${itemPath(props.guildId, props.item.id)}/stock`;
  const value = props.form ? (props.form.values.get(ITEM_FIELDS.stock) ?? '') : count(props.item.stock);
  return (
    <form method="post" action={action} class="card">
      <h2>Stock</h2>
      <FormFields viewer={props.viewer} action={action} />
      <TextField numeric name={ITEM_FIELDS.stock} label="Units for sale" hint="0 to 1,000,000; empty is unlimited." value={value} problem={props.form?.problem} />
      <button type="submit">Save the stock</button>
    </form>
  );
}
