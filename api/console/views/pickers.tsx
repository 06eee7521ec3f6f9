import type { DirectoryChannel, DirectoryRole, ServerDirectory } from '../../../src/console/serverDirectory.js';
import { FieldMessage, invalidAttrs, type FormProblem } from './formParts.js';

interface PickerProps {
  /** The form field's name, also the input's id (the error summary links to it). */
  name: string;
  label: string;
  hint?: string;
  problem?: FormProblem;
}

const ChannelTypeLabel: Record<DirectoryChannel['type'], string> = {
  text: '#',
  announcement: '#',
  forum: 'forum',
  media: 'media',
  voice: 'voice',
  stage: 'stage',
  category: 'category',
  other: '',
};

export const channelLabel = (c: DirectoryChannel) => (ChannelTypeLabel[c.type] === '#' ? `#${c.name}` : `${c.name} (${ChannelTypeLabel[c.type] || c.type})`);

/**
 * One channel of the server by its name, limited to the types the setting accepts (text channels for a message,
 * categories for where tickets open); `none` adds an empty first choice for a setting that may be unset.
 */
export function ChannelPicker(
  props: PickerProps & { directory: ServerDirectory; types: ReadonlyArray<DirectoryChannel['type']>; selected?: string | null; none?: string },
) {
  const offered = props.directory.channels.filter((c) => props.types.includes(c.type));
  // A setting may name a channel since deleted or of another type: shown, so saving the form does not drop it unseen.
  const unknown = props.selected && !offered.some((c) => c.id === props.selected) ? props.selected : null;
  return (
    <p>
      <label for={props.name}>{props.label}</label>
      {props.hint && <span class="muted hint">{props.hint}</span>}
      <FieldMessage problem={props.problem} field={props.name} />
      <select id={props.name} name={props.name} {...invalidAttrs(props.problem, props.name)}>
        {props.none !== undefined && <option value="">{props.none}</option>}
        {unknown && (
          <option value={unknown} selected>
            Unknown channel {unknown}
          </option>
        )}
        {offered.map((c) => (
          <option value={c.id} selected={c.id === props.selected}>
            {channelLabel(c)}
          </option>
        ))}
      </select>
    </p>
  );
}

/** The roles a member can be given or lose: a managed role (a bot's, a booster's) is not offered. */
const assignable = (roles: DirectoryRole[]) => roles.filter((r) => !r.managed);

/** One role by its name, highest first; `none` adds an empty first choice. */
export function RolePicker(props: PickerProps & { directory: ServerDirectory; selected?: string | null; none?: string }) {
  return (
    <p>
      <label for={props.name}>{props.label}</label>
      {props.hint && <span class="muted hint">{props.hint}</span>}
      <FieldMessage problem={props.problem} field={props.name} />
      <select id={props.name} name={props.name} {...invalidAttrs(props.problem, props.name)}>
        {props.none !== undefined && <option value="">{props.none}</option>}
        {assignable(props.directory.roles).map((r) => (
          <option value={r.id} selected={r.id === props.selected}>
            @{r.name}
          </option>
        ))}
      </select>
    </p>
  );
}

/** Any number of roles, as checkboxes in a fieldset (usable without JavaScript and on a phone, unlike a multiple select). */
export function RolesPicker(props: PickerProps & { directory: ServerDirectory; selected: readonly string[] }) {
  const roles = assignable(props.directory.roles);
  return (
    <fieldset id={props.name} {...invalidAttrs(props.problem, props.name, true)}>
      <legend>{props.label}</legend>
      {props.hint && <span class="muted hint">{props.hint}</span>}
      <FieldMessage problem={props.problem} field={props.name} />
      {roles.length === 0 ? (
        <p data-empty="roles">This server has no role the bot can give. Create one in Discord's server settings first.</p>
      ) : (
        roles.map((r) => (
          <label class="check">
            <input type="checkbox" name={props.name} value={r.id} checked={props.selected.includes(r.id)} /> @{r.name}
          </label>
        ))
      )}
    </fieldset>
  );
}

/**
 * Any number of channels of the types the setting accepts, as checkboxes like RolesPicker. A channel the setting
 * names that the server no longer lists (deleted, or of another type) is shown ticked by its id, so saving keeps it
 * in sight; untick it to drop it.
 */
export function ChannelsPicker(props: PickerProps & { directory: ServerDirectory; types: ReadonlyArray<DirectoryChannel['type']>; selected: readonly string[] }) {
  const offered = props.directory.channels.filter((c) => props.types.includes(c.type));
  const unknown = props.selected.filter((id) => !offered.some((c) => c.id === id));
  return (
    <fieldset id={props.name} {...invalidAttrs(props.problem, props.name, true)}>
      <legend>{props.label}</legend>
      {props.hint && <span class="muted hint">{props.hint}</span>}
      <FieldMessage problem={props.problem} field={props.name} />
      {offered.length === 0 && unknown.length === 0 && <p data-empty="channels">This server has no channel of that kind. Create one in Discord first.</p>}
      {unknown.map((id) => (
        <label class="check">
          <input type="checkbox" name={props.name} value={id} checked /> Unknown channel {id}
        </label>
      ))}
      {offered.map((c) => (
        <label class="check">
          <input type="checkbox" name={props.name} value={c.id} checked={props.selected.includes(c.id)} /> {channelLabel(c)}
        </label>
      ))}
    </fieldset>
  );
}
