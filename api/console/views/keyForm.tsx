import type { GuildRecord } from '../../../db/guild/guilds.js';
import { FieldMessage, FormFields, invalidAttrs, type FormState } from './formParts.js';
import type { Viewer } from './layout.js';

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

export function CreateKeyForm(props: { guild: GuildRecord; viewer: Viewer; scopes: readonly string[]; expiryDays: readonly number[]; form?: FormState }) {
  const action = `/console/servers/${props.guild.id}/keys`;
  const values = props.form?.values;
  const problem = props.form?.problem;
  const picked = new Set(values?.getAll('scopes') ?? []);
  const expires = values?.get('expires') ?? 'never';
  return (
    <form method="post" action={action} class="card" novalidate>
      <h2>Create a key</h2>
      <FormFields viewer={props.viewer} action={action} />
      <p>
        <label for={KEY_FIELDS.name}>Name</label>
        <FieldMessage problem={problem} field={KEY_FIELDS.name} />
        <input id={KEY_FIELDS.name} name="name" required maxLength={100} autocomplete="off" value={values?.get('name') ?? ''} {...invalidAttrs(problem, KEY_FIELDS.name)} />
      </p>
      <fieldset {...invalidAttrs(problem, KEY_FIELDS.scopes, true)}>
        <legend>Scopes</legend>
        <FieldMessage problem={problem} field={KEY_FIELDS.scopes} />
        {groupScopes(props.scopes).map(([area, scopes], g) => (
          <fieldset class="scope-group">
            <legend>{area}</legend>
            {scopes.map((s, i) => (
              <label class="check">
                <input type="checkbox" name="scopes" value={s} checked={picked.has(s)} id={g === 0 && i === 0 ? KEY_FIELDS.scopes : undefined} /> {s}
              </label>
            ))}
          </fieldset>
        ))}
      </fieldset>
      <fieldset {...invalidAttrs(problem, KEY_FIELDS.expires, true)}>
        <legend>Expires</legend>
        <FieldMessage problem={problem} field={KEY_FIELDS.expires} />
        {props.expiryDays.map((d, i) => (
          <label class="check">
            <input type="radio" name="expires" value={String(d)} checked={expires === String(d)} id={i === 0 ? KEY_FIELDS.expires : undefined} /> in {d} days
          </label>
        ))}
        <label class="check">
          <input type="radio" name="expires" value="never" checked={expires === 'never'} /> never
        </label>
      </fieldset>
      <button type="submit">Create key</button>
    </form>
  );
}
