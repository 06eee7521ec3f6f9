import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { PurchaseBody } from '../../../src/shop/contract.js';
import { ListView, optionsOf } from './listView.js';
import { TextField } from './fields.js';
import { ErrorSummary, FormFields, type FormState } from './formParts.js';
import { isoTime, Layout, type Viewer } from './layout.js';
import { purchasePath, shopNav, shopPath } from './shopParts.js';

export const PURCHASE_FILTERS = ['owned', 'used', 'refunded'] as const;
export const REFUND_FIELDS = { reason: 'refund-reason' } as const;

type Names = Map<string, string>;
const who = (names: Names, id: string | null) => (id === null ? null : (names.get(id) ?? id));
const when = (iso: string | null) => (iso ? isoTime(new Date(iso)) : null);

export function PurchasesPage(props: { viewer: Viewer; guild: GuildRecord; status: string | undefined; purchases: PurchaseBody[]; names: Names; olderHref: string | null }) {
  const { guild, names } = props;
  return (
    <Layout title="Shop purchases" viewer={props.viewer} server={shopNav(guild)}>
      <p>
        <a href={shopPath(guild.id)}>Stores and items</a>
      </p>
      <ListView
        filter={{ action: `${shopPath(guild.id)}/purchases`, id: 'purchase-status', options: optionsOf(PURCHASE_FILTERS), current: props.status, any: 'any' }}
        caption="Purchases and grants, newest first"
        columns={['Purchase', 'Member', 'Item', 'Paid', 'Status', 'When']}
        rows={props.purchases}
        empty={{ name: 'purchases', text: props.status ? 'No purchase has this status.' : 'No purchase yet. Members buy items with the bot\'s shop command once a store has items.' }}
        row={(p) => (
          <tr data-purchase={String(p.id)}>
            <td>
              <a href={purchasePath(guild.id, p.id)}>#{p.id}</a>
            </td>
            <td>{who(names, p.userId)}</td>
            <td>{p.item.name}</td>
            <td>{p.source === 'grant' ? 'granted' : p.pricePaid}</td>
            <td data-status={p.status}>{p.status}</td>
            <td>{when(p.createdAt)}</td>
          </tr>
        )}
        older={{ href: props.olderHref, label: 'Older purchases' }}
      />
    </Layout>
  );
}

function PurchaseFacts({ purchase: p, names }: { purchase: PurchaseBody; names: Names }) {
  return (
    <dl>
      <dt>Member</dt>
      <dd>{who(names, p.userId)}</dd>
      <dt>Item</dt>
      <dd>
        {p.item.name} ({p.item.type}) from {p.store.name ?? 'Main'}
      </dd>
      <dt>{p.source === 'grant' ? 'Granted' : 'Bought'}</dt>
      <dd>
        {when(p.createdAt)}, paid {p.pricePaid}
      </dd>
      <dt>Status</dt>
      <dd data-status={p.status}>{p.status}</dd>
      {p.expiresAt && (
        <>
          <dt>Timed role ends</dt>
          <dd>{when(p.expiresAt)}</dd>
        </>
      )}
      {p.refundedAt && (
        <>
          <dt>Refunded</dt>
          <dd>
            {when(p.refundedAt)}
            {p.refundedBy && ` by ${who(names, p.refundedBy)}`}
          </dd>
        </>
      )}
    </dl>
  );
}

export function PurchasePage(props: { viewer: Viewer; guild: GuildRecord; purchase: PurchaseBody; names: Names }) {
  const { guild, purchase } = props;
  return (
    <Layout title={`Purchase #${purchase.id}`} viewer={props.viewer} server={shopNav(guild)}>
      <PurchaseFacts purchase={purchase} names={props.names} />
      {purchase.status !== 'refunded' && (
        <p>
          <a href={`${purchasePath(guild.id, purchase.id)}/refund`}>Refund this purchase…</a>
        </p>
      )}
      <p>
        <a href={`${shopPath(guild.id)}/purchases`}>All purchases</a>
      </p>
    </Layout>
  );
}

/** The refund asks first: the price goes back to the member, the unit back in stock, the role comes off. */
export function RefundPage(props: { viewer: Viewer; guild: GuildRecord; purchase: PurchaseBody; names: Names; form?: FormState }) {
  const { guild, purchase } = props;
  const action = `${purchasePath(guild.id, purchase.id)}/refund`;
  const problem = props.form?.problem;
  return (
    <Layout title={`Refund purchase #${purchase.id}?`} viewer={props.viewer} server={shopNav(guild)} hasErrors={!!problem}>
      <ErrorSummary problem={problem} />
      <PurchaseFacts purchase={purchase} names={props.names} />
      <p>
        {purchase.pricePaid > 0 ? `${purchase.pricePaid} goes back to ${who(props.names, purchase.userId)}'s balance` : 'Nothing was paid'}, the unit goes back in stock
        {purchase.roleId ? ' and the bot takes the role back (unless another purchase gives it)' : ''}.
      </p>
      <form method="post" action={action}>
        <FormFields viewer={props.viewer} action={action} />
        <TextField rows={4} name={REFUND_FIELDS.reason} label="Reason (optional)" hint="Kept in the ledger and the audit log; up to 500 characters." value={props.form?.values.get(REFUND_FIELDS.reason) ?? ''} maxLength={500} problem={problem} />
        <button type="submit" class="danger">
          Refund
        </button>{' '}
        <a href={purchasePath(guild.id, purchase.id)}>Cancel</a>
      </form>
    </Layout>
  );
}
