import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { ApiKeyRecord } from '../../../db/keys/apiKeys.js';
import type { RollOverlap } from '../../../src/keys/keyRoll.js';
import { ErrorSummary, FieldMessage, FormFields, invalidAttrs, type FormState } from './formParts.js';
import { DEFAULT_EXPIRY, ExpiryFieldset } from './keyForm.js';
import { Layout, type Viewer } from './layout.js';
import { ScopeList } from './scopeText.js';

export const ROLL_FIELDS = { overlap: 'roll-overlap', expires: 'roll-expires' } as const;
/** Long enough to deploy the new key without a rush, short enough that a leaked key does not linger. */
export const DEFAULT_OVERLAP: RollOverlap = '24h';

const CHOICES: Array<[RollOverlap, string]> = [
  ['now', 'stops working now'],
  ['1h', 'keeps working for 1 hour'],
  ['24h', 'keeps working for 24 hours'],
  ['7d', 'keeps working for 7 days'],
];

/** The confirmation of a roll: what happens, and how long the old key keeps working. */
export function RollKeyPage(props: {
  viewer: Viewer;
  guild: GuildRecord;
  apiKey: Pick<ApiKeyRecord, 'id' | 'name' | 'prefix' | 'scopes'>;
  expiryDays: readonly number[];
  form?: FormState;
}) {
  const { guild, apiKey: key } = props;
  const action = `/console/servers/${guild.id}/keys/${key.id}/roll`;
  const values = props.form?.values;
  const problem = props.form?.problem;
  const picked = values?.get('overlap') ?? DEFAULT_OVERLAP;
  const expires = values ? (values.get('expires') ?? 'never') : DEFAULT_EXPIRY;
  return (
    <Layout title={`Roll "${key.name}"?`} viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: 'keys' }} hasErrors={!!problem}>
      <ErrorSummary problem={problem} />
      <p>
        Rolling makes a new secret for this key, with the same name and scopes, shown once on the next page. Requests with the old key{' '}
        <code>{key.prefix}…</code> are refused (401 <code>API_KEY_EXPIRED</code>) once the time you choose here has passed.
      </p>
      <ScopeList scopes={key.scopes} />
      <form method="post" action={action} noValidate>
        <FormFields viewer={props.viewer} action={action} />
        <fieldset {...invalidAttrs(problem, ROLL_FIELDS.overlap, true)}>
          <legend>The old key…</legend>
          <FieldMessage problem={problem} field={ROLL_FIELDS.overlap} />
          {CHOICES.map(([value, label], i) => (
            <label class="check">
              <input type="radio" name="overlap" value={value} checked={picked === value} id={i === 0 ? ROLL_FIELDS.overlap : undefined} /> {label}
            </label>
          ))}
        </fieldset>
        <ExpiryFieldset expiryDays={props.expiryDays} value={expires} problem={problem} field={ROLL_FIELDS.expires} legend="The new key expires" />
        <button type="submit" class="danger">
          Roll the key
        </button>{' '}
        <a href={`/console/servers/${guild.id}/keys`}>Cancel</a>
      </form>
    </Layout>
  );
}
