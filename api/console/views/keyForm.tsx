import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { Scope } from '../../../src/core/scopes.js';
import { FieldMessage, FormFields, invalidAttrs, type FormProblem, type FormState } from './formParts.js';
import type { Viewer } from './layout.js';
import { isSensitive, SCOPE_HELP, SensitiveTag } from './scopeText.js';

/** Scopes grouped by their area (the part before the colon), as the create form shows them. */
export function groupScopes(scopes: readonly string[]): Array<[string, string[]]> {
  const groups = new Map<string, string[]>();
  for (const s of scopes) {
    const area = s.split(':')[0]!;
    groups.set(area, [...(groups.get(area) ?? []), s]);
  }
  return [...groups];
}

/** The ids the create form's fields carry (the error summary links to them). */
export const KEY_FIELDS = { name: 'key-name', scopes: 'key-scopes', expires: 'key-expires' } as const;

/** The expiry a new key gets unless the manager picks another (Stripe's advice: keys that end by themselves). */
export const DEFAULT_EXPIRY = '90';

// The help sits outside the label: the checkbox is named by its scope (and tag), described by what it allows.
function ScopeChoice(props: { scope: string; checked: boolean; id?: string }) {
  const help = `scope-help-${props.scope.replace(':', '-')}`;
  return (
    <div class="check">
      <label>
        <input type="checkbox" name="scopes" value={props.scope} checked={props.checked} id={props.id} aria-describedby={help} /> {props.scope}
        {isSensitive(props.scope) && (
          <>
            {' '}
            <SensitiveTag />
          </>
        )}
      </label>
      <span id={help} class="help">
        {SCOPE_HELP[props.scope as Scope]}
      </span>
    </div>
  );
}

/** The expiry choice of a new key (created or rolled): the spec's 30, 90 or 365 days, or never. */
export function ExpiryFieldset(props: { expiryDays: readonly number[]; value: string; problem?: FormProblem; field: string; legend: string }) {
  const { problem, field } = props;
  return (
    <fieldset {...invalidAttrs(problem, field, true)}>
      <legend>{props.legend}</legend>
      <FieldMessage problem={problem} field={field} />
      {props.expiryDays.map((d, i) => (
        <label class="check">
          <input type="radio" name="expires" value={String(d)} checked={props.value === String(d)} id={i === 0 ? field : undefined} /> in {d} days
        </label>
      ))}
      <label class="check">
        <input type="radio" name="expires" value="never" checked={props.value === 'never'} /> never
      </label>
    </fieldset>
  );
}

export function CreateKeyForm(props: {
  guild: GuildRecord;
  viewer: Viewer;
  scopes: readonly string[];
  expiryDays: readonly number[];
  /** Keys counting toward the plan's limit, and the limit. */
  count: { active: number; limit: number };
  form?: FormState;
}) {
  const action = `/console/servers/${props.guild.id}/keys`;
  const values = props.form?.values;
  const problem = props.form?.problem;
  const picked = new Set(values?.getAll('scopes') ?? []);
  const expires = values ? (values.get('expires') ?? 'never') : DEFAULT_EXPIRY;
  const { active, limit } = props.count;
  return (
    <form method="post" action={action} class="card" noValidate>
      <h2>Create a key</h2>
      <p data-key-count class={active >= limit ? 'warning' : 'muted'}>
        {active} of {limit} keys in use on the {props.guild.plan} plan{active >= limit && <>: revoke one before creating another</>}.
      </p>
      <FormFields viewer={props.viewer} action={action} />
      <p>
        <label for={KEY_FIELDS.name}>Name</label>
        <FieldMessage problem={problem} field={KEY_FIELDS.name} />
        <input id={KEY_FIELDS.name} name="name" required maxLength={100} autocomplete="off" value={values?.get('name') ?? ''} {...invalidAttrs(problem, KEY_FIELDS.name)} />
      </p>
      <fieldset {...invalidAttrs(problem, KEY_FIELDS.scopes, true)}>
        <legend>Scopes</legend>
        <p class="muted">
          Sensitive scopes move members' money, act on the shop, run flows or moderate: give them only to a backend you trust.
        </p>
        <FieldMessage problem={problem} field={KEY_FIELDS.scopes} />
        {groupScopes(props.scopes).map(([area, scopes], g) => (
          <fieldset class="scope-group">
            <legend>{area}</legend>
            {scopes.map((s, i) => (
              <ScopeChoice scope={s} checked={picked.has(s)} id={g === 0 && i === 0 ? KEY_FIELDS.scopes : undefined} />
            ))}
          </fieldset>
        ))}
      </fieldset>
      <ExpiryFieldset expiryDays={props.expiryDays} value={expires} problem={problem} field={KEY_FIELDS.expires} legend="Expires" />
      <button type="submit">Create key</button>
    </form>
  );
}
