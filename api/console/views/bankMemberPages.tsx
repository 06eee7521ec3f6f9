import type { BankSettings } from '../../../db/bank/accounts.js';
import type { GuildRecord } from '../../../db/guild/guilds.js';
import { MAX_BANK_AMOUNT } from '../../../src/bank/contract.js';
import type { MemberSearch } from '../../../src/console/memberSearch.js';
import { ErrorSummary, FieldMessage, FormFields, invalidAttrs, type FormProblem, type FormState } from './formParts.js';
import { isoTime, Layout, type Viewer } from './layout.js';
import { bankMemberPath, bankPath, money } from './bankPages.js';
import { FoundMembers, MemberFinder } from './memberPicker.js';
import { ListView } from './listView.js';

/** The adjustment form's input ids (the error summary links to them). */
export const ADJUST_FIELDS = { type: 'adjust-type', amount: 'adjust-amount', reason: 'adjust-reason' } as const;

export const adjustPath = (guildId: string, userId: string) => `${bankMemberPath(guildId, userId)}/adjustments`;

/** The member a page is about: by display name when the platform knows them, else by id. */
export interface BankMember {
  userId: string;
  name: string | null;
}

const memberLabel = (m: BankMember) => m.name ?? `user ${m.userId}`;

export interface LedgerLine {
  id: number;
  type: string;
  amount: number;
  balanceAfter: number;
  reason: string | null;
  createdAt: string;
}

function AdjustForm(props: { viewer: Viewer; guild: GuildRecord; member: BankMember; form?: FormState }) {
  const problem = props.form?.problem;
  const values = props.form?.values;
  const type = values?.get('type') ?? 'add';
  const action = adjustPath(props.guild.id, props.member.userId);
  return (
    <form method="post" action={action} class="card">
      <h2>Adjust the balance</h2>
      <FormFields viewer={props.viewer} action={action} />
      <fieldset id={ADJUST_FIELDS.type} {...invalidAttrs(problem, ADJUST_FIELDS.type, true)}>
        <legend>Change</legend>
        <FieldMessage problem={problem} field={ADJUST_FIELDS.type} />
        <label class="check">
          <input type="radio" name="type" value="add" checked={type === 'add'} /> Add to the balance
        </label>
        <label class="check">
          <input type="radio" name="type" value="remove" checked={type === 'remove'} /> Remove from the balance (you confirm next)
        </label>
      </fieldset>
      <div>
        <label for={ADJUST_FIELDS.amount}>Amount</label>
        <span class="muted hint">A whole number from 1 to {MAX_BANK_AMOUNT.toLocaleString('en-US')}.</span>
        <FieldMessage problem={problem} field={ADJUST_FIELDS.amount} />
        <input id={ADJUST_FIELDS.amount} name="amount" inputMode="numeric" value={values?.get('amount') ?? ''} {...invalidAttrs(problem, ADJUST_FIELDS.amount)} />
      </div>
      <div>
        <label for={ADJUST_FIELDS.reason}>Reason</label>
        <span class="muted hint">Optional, up to 200 characters; written in the ledger and the bank log.</span>
        <FieldMessage problem={problem} field={ADJUST_FIELDS.reason} />
        <input id={ADJUST_FIELDS.reason} name="reason" value={values?.get('reason') ?? ''} {...invalidAttrs(problem, ADJUST_FIELDS.reason)} />
      </div>
      <p>
        <button type="submit">Apply the change</button>
      </p>
    </form>
  );
}

export function BankMemberPage(props: {
  viewer: Viewer;
  guild: GuildRecord;
  member: BankMember;
  balance: number;
  currency: BankSettings['currency'];
  ledger: LedgerLine[];
  olderHref: string | null;
  form?: FormState;
}) {
  const { guild, member, currency } = props;
  return (
    <Layout title={`Bank: ${memberLabel(member)}`} viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: 'bank' }} hasErrors={!!props.form?.problem}>
      <ErrorSummary problem={props.form?.problem} />
      <p data-balance={props.balance}>
        Balance: <strong>{money(props.balance, currency)}</strong>
      </p>
      <AdjustForm viewer={props.viewer} guild={guild} member={member} form={props.form} />
      <h2>History</h2>
      <ListView
        caption={<>Ledger of {memberLabel(member)}, newest first</>}
        columns={['When', 'Type', 'Amount', 'Balance after', 'Reason']}
        rows={props.ledger}
        empty={{ name: 'ledger', text: 'No change yet: the balance is the starting balance until the first one.' }}
        row={(r) => (
          <tr data-transaction={r.id}>
            <td>{isoTime(new Date(r.createdAt))}</td>
            <td>{r.type}</td>
            <td>{r.amount > 0 ? `+${r.amount.toLocaleString('en-US')}` : r.amount.toLocaleString('en-US')}</td>
            <td>{r.balanceAfter.toLocaleString('en-US')}</td>
            <td>{r.reason ?? <span class="muted">none</span>}</td>
          </tr>
        )}
        older={{ href: props.olderHref, label: 'Older changes' }}
      />
      <p>
        <a href={bankPath(guild.id)}>Back to the bank</a>
      </p>
    </Layout>
  );
}

/** Removing money asks first, saying what the balance becomes; the same form again with `confirm`. */
export function ConfirmRemovalPage(props: { viewer: Viewer; guild: GuildRecord; member: BankMember; amount: number; reason: string | null; balance: number; currency: BankSettings['currency'] }) {
  const { guild, member, currency } = props;
  const action = adjustPath(guild.id, member.userId);
  return (
    <Layout title={`Remove ${money(props.amount, currency)} from ${memberLabel(member)}?`} viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: 'bank' }}>
      <p data-confirm-removal>
        The balance goes from {money(props.balance, currency)} to <strong>{money(props.balance - props.amount, currency)}</strong>
        {props.reason ? <>, with the reason "{props.reason}"</> : ', with no reason'}. The member and the bank log see the change.
      </p>
      <form method="post" action={action}>
        <FormFields viewer={props.viewer} action={action} />
        <input type="hidden" name="type" value="remove" />
        <input type="hidden" name="amount" value={String(props.amount)} />
        <input type="hidden" name="reason" value={props.reason ?? ''} />
        <input type="hidden" name="confirm" value="yes" />
        <button type="submit" class="danger">
          Remove {money(props.amount, currency)}
        </button>{' '}
        <a href={bankMemberPath(guild.id, member.userId)}>Cancel</a>
      </form>
    </Layout>
  );
}

/** The members whose name starts as searched, each a link to their balance; the finder kept with its problem. */
export function BankSearchPage(props: { viewer: Viewer; guild: GuildRecord; search: MemberSearch; values: URLSearchParams; problem?: FormProblem }) {
  const { guild } = props;
  return (
    <Layout title="Find a member" viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: 'bank' }} hasErrors={!!props.problem}>
      <ErrorSummary problem={props.problem} />
      <MemberFinder action={`${bankPath(guild.id)}/members`} title="A member's balance" values={props.values} problem={props.problem} />
      <FoundMembers search={props.search} hrefOf={(id) => bankMemberPath(guild.id, id)} empty="bank-members" />
    </Layout>
  );
}
