import type { GuildRecord } from '../../../db/guild/guilds.js';
import { MOD_ACTIONS } from '../../../src/moderation/refusalRules.js';
import { TextField } from './fields.js';
import { ErrorSummary, FieldMessage, FormFields, invalidAttrs, type FormProblem } from './formParts.js';
import { Layout, type Viewer } from './layout.js';
import { byIdFieldOf, MemberPicker, MemberSearchForm, type MemberPickerProps } from './memberPicker.js';
import { DELETE_MESSAGE_CHOICES, MOD_FIELDS } from './modActionFields.js';
import { ACTION_LABELS, actionsPath, DELETE_LABELS } from './modActionPages.js';
import { moderationPath, nav } from './moderationPages.js';

/** The action form: what to do to whom, for how long and why; kept with its values and problem when it comes back. */
export function ModActionFormPage(props: { viewer: Viewer; guild: GuildRecord; picker: Pick<MemberPickerProps, 'name' | 'search' | 'selected'>; values: URLSearchParams; problem?: FormProblem }) {
  const { guild, values, problem } = props;
  const action = actionsPath(guild.id);
  const picked = values.get(MOD_FIELDS.action);
  return (
    <Layout title="Take a moderation action" viewer={props.viewer} server={nav(guild)} hasErrors={!!problem}>
      <ErrorSummary problem={problem} />
      <p>
        The bot acts in your name, as with its commands: you need the permission the action needs, and the member's highest role must be below yours and the bot's.
        Kicks, bans and timeouts are confirmed on the next page.
      </p>
      <MemberSearchForm name={MOD_FIELDS.member} action={`${action}/new`} values={values} />
      <form method="post" action={action} class="card">
        <FormFields viewer={props.viewer} action={action} />
        <fieldset id={MOD_FIELDS.action} {...invalidAttrs(problem, MOD_FIELDS.action, true)}>
          <legend>Action</legend>
          <FieldMessage problem={problem} field={MOD_FIELDS.action} />
          {MOD_ACTIONS.map((a) => (
            <label class="check">
              <input type="radio" name={MOD_FIELDS.action} value={a} checked={picked === a} required /> {ACTION_LABELS[a]}
            </label>
          ))}
        </fieldset>
        <MemberPicker
          {...props.picker}
          label="Member"
          searchAction={`${action}/new`}
          byId={{ hint: "For a user the search cannot find: a banned user's id to lift their ban, or someone who left (17 to 20 digits).", value: values.get(byIdFieldOf(MOD_FIELDS.member)) ?? '' }}
          problem={problem}
        />
        <p>
          <label for={MOD_FIELDS.duration}>Duration</label>
          <span id={`${MOD_FIELDS.duration}-hint`} class="muted hint">
            A timeout: 1 minute to 28 days. A ban: empty for a permanent ban, or 1 minute to 365 days for a temporary one. Other actions ignore it.
          </span>
          <FieldMessage problem={problem} field={MOD_FIELDS.duration} />
          <input type="number" id={MOD_FIELDS.duration} name={MOD_FIELDS.duration} value={values.get(MOD_FIELDS.duration) ?? ''} min={1} step={1} aria-describedby={`${MOD_FIELDS.duration}-hint`} {...invalidAttrs(problem, MOD_FIELDS.duration)} />{' '}
          <label for={MOD_FIELDS.unit} class="visually-hidden">
            Duration unit
          </label>
          <select id={MOD_FIELDS.unit} name={MOD_FIELDS.unit}>
            {['minutes', 'hours', 'days'].map((u) => (
              <option value={u} selected={(values.get(MOD_FIELDS.unit) ?? 'minutes') === u}>
                {u}
              </option>
            ))}
          </select>
        </p>
        <p>
          <label for={MOD_FIELDS.deleteMessages}>Delete the member's messages (a ban only)</label>
          <FieldMessage problem={problem} field={MOD_FIELDS.deleteMessages} />
          <select id={MOD_FIELDS.deleteMessages} name={MOD_FIELDS.deleteMessages} {...invalidAttrs(problem, MOD_FIELDS.deleteMessages)}>
            {DELETE_MESSAGE_CHOICES.map((s) => (
              <option value={String(s)} selected={(values.get(MOD_FIELDS.deleteMessages) ?? '0') === String(s)}>
                {DELETE_LABELS[s]}
              </option>
            ))}
          </select>
        </p>
        <TextField
          name={MOD_FIELDS.reason}
          label="Reason"
          hint="Required for a warning; up to 500 characters. Shown in the case, the mod log and the member's direct message."
          value={values.get(MOD_FIELDS.reason) ?? ''}
          maxLength={500}
          rows={3}
          problem={problem}
        />
        <TextField name={MOD_FIELDS.evidence} label="Evidence (optional)" hint="Up to 5 links, one per line." value={values.get(MOD_FIELDS.evidence) ?? ''} rows={3} problem={problem} />
        <button type="submit">Continue</button> <a href={moderationPath(guild.id)}>Cancel</a>
      </form>
    </Layout>
  );
}

