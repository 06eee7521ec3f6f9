import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { BankSettings } from '../../../db/bank/accounts.js';
import type { BankOverview } from '../../../src/console/bankOverview.js';
import { CURRENCY_EMOJI_MAX, CURRENCY_NAME_MAX } from '../../../src/bank/changeBankSettings.js';
import { MAX_BANK_AMOUNT } from '../../../src/bank/contract.js';
import { ErrorSummary, FieldMessage, FormFields, invalidAttrs, type FormProblem, type FormState } from './formParts.js';
import { Layout, type Viewer } from './layout.js';
import { ListView } from './listView.js';
import { MemberFinder } from './memberPicker.js';
import { ChannelPicker } from './pickers.js';

/** The settings form's input ids (the error summary links to them). */
export const BANK_FIELDS = {
  name: 'currency-name',
  plural: 'currency-plural',
  emoji: 'currency-emoji',
  startingBalance: 'starting-balance',
  maxBalance: 'max-balance',
  logChannel: 'bank-log-channel',
} as const;

export const bankPath = (guildId: string) => `/console/servers/${guildId}/bank`;
export const bankMemberPath = (guildId: string, userId: string) => `${bankPath(guildId)}/members/${userId}`;

/** An amount with the currency's word and emoji, as the bank log writes it. */
export const money = (amount: number, currency: BankSettings['currency']) =>
  `${currency.emoji ? `${currency.emoji} ` : ''}${amount.toLocaleString('en-US')} ${Math.abs(amount) === 1 ? currency.name : currency.plural}`;

function TextField(props: { id: string; label: string; hint: string; value: string; problem?: FormProblem; maxLength?: number; numeric?: boolean }) {
  return (
    <div>
      <label for={props.id}>{props.label}</label>
      <span class="muted hint">{props.hint}</span>
      <FieldMessage problem={props.problem} field={props.id} />
      <input
        id={props.id}
        name={props.id}
        value={props.value}
        maxLength={props.maxLength}
        inputMode={props.numeric ? 'numeric' : undefined}
        {...invalidAttrs(props.problem, props.id)}
      />
    </div>
  );
}

function SettingsForm(props: { viewer: Viewer; guild: GuildRecord; overview: BankOverview; form?: FormState }) {
  const { settings, directory } = props.overview;
  const problem = props.form?.problem;
  const values = props.form?.values;
  const value = (field: string, saved: string) => values?.get(field) ?? saved;
  const action = `${bankPath(props.guild.id)}/settings`;
  return (
    <form method="post" action={action} class="card">
      <h2>Settings</h2>
      <FormFields viewer={props.viewer} action={action} />
      <TextField id={BANK_FIELDS.name} label="Currency name" hint={`One unit, 1 to ${CURRENCY_NAME_MAX} characters (coin).`} value={value(BANK_FIELDS.name, settings.currency.name)} problem={problem} />
      <TextField id={BANK_FIELDS.plural} label="Currency plural" hint={`1 to ${CURRENCY_NAME_MAX} characters (coins).`} value={value(BANK_FIELDS.plural, settings.currency.plural)} problem={problem} />
      <TextField
        id={BANK_FIELDS.emoji}
        label="Currency emoji"
        hint={`Shown before amounts; at most ${CURRENCY_EMOJI_MAX} characters, empty for none.`}
        value={value(BANK_FIELDS.emoji, settings.currency.emoji ?? '')}
        problem={problem}
      />
      <TextField
        id={BANK_FIELDS.startingBalance}
        label="Starting balance"
        hint={`What a member has before their first change, 0 to ${MAX_BANK_AMOUNT.toLocaleString('en-US')}.`}
        value={value(BANK_FIELDS.startingBalance, String(settings.startingBalance))}
        problem={problem}
        numeric
      />
      <TextField
        id={BANK_FIELDS.maxBalance}
        label="Maximum balance"
        hint="Changes that would go above it are refused; at least the starting balance. Empty for no maximum."
        value={value(BANK_FIELDS.maxBalance, settings.maxBalance === null ? '' : String(settings.maxBalance))}
        problem={problem}
        numeric
      />
      <ChannelPicker
        name={BANK_FIELDS.logChannel}
        label="Bank log channel"
        hint="The bot writes every balance change there."
        directory={directory}
        types={['text', 'announcement']}
        selected={values ? values.get(BANK_FIELDS.logChannel) : settings.logChannelId}
        none="No log"
        problem={problem}
      />
      <p>
        <button type="submit">Save the bank settings</button>
      </p>
    </form>
  );
}

export function BankPage(props: { viewer: Viewer; guild: GuildRecord; overview: BankOverview; olderHref: string | null; form?: FormState }) {
  const { guild, overview } = props;
  const { leaderboard, names, settings } = overview;
  return (
    <Layout title="Bank" viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: 'bank' }} hasErrors={!!props.form?.problem}>
      <ErrorSummary problem={props.form?.problem} />
      <MemberFinder action={`${bankPath(guild.id)}/members`} title="A member's balance" />
      <SettingsForm viewer={props.viewer} guild={guild} overview={overview} form={props.form} />
      <h2>Leaderboard</h2>
      <ListView
        caption={<>Members of {guild.name} by balance</>}
        columns={['Rank', 'Member', 'Balance']}
        rows={leaderboard.items}
        empty={{ name: 'bank-leaderboard', text: "Nobody has a balance yet: members get one with their first change (a daily reward, a purchase, or an adjustment from a member's page)." }}
        row={(r) => (
          <tr data-rank={r.rank}>
            <td>{r.rank}</td>
            <td>
              <a href={bankMemberPath(guild.id, r.userId)}>{names.get(r.userId) ?? r.userId}</a>
            </td>
            <td>{money(r.balance, settings.currency)}</td>
          </tr>
        )}
        older={{ href: props.olderHref, label: 'Next members' }}
      />
    </Layout>
  );
}
