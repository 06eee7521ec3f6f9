import type { GuildRecord } from '../../../db/guild/guilds.js';
import type { ServerDirectory } from '../../../src/console/serverDirectory.js';
import { MAX_DURATION_SECONDS } from '../../../src/giveaways/giveawayRules.js';
import { TextField } from './fields.js';
import { ErrorSummary, FieldMessage, FormFields, invalidAttrs, type FormState } from './formParts.js';
import { bonusField, GIVEAWAY_FIELDS as F, NumberField, utcInputValue } from './giveawayFields.js';
import { Layout, type Viewer } from './layout.js';
import { ChannelPicker, RolePicker, RolesPicker } from './pickers.js';

export const giveawaysPath = (guildId: string) => `/console/servers/${guildId}/giveaways`;
const DEFAULT_LENGTH_MS = 86_400_000;
const MAX_DAYS = MAX_DURATION_SECONDS / 86_400;

/** The requirements part of the start form: the spec's `requirements` object, field by field. */
function Requirements(props: { directory: ServerDirectory; form?: FormState }) {
  const { directory } = props;
  const sent = props.form?.values;
  const problem = props.form?.problem;
  const value = (field: string, fallback: string) => sent?.get(field) ?? fallback;
  const mode = value(F.roleMode, 'any');
  const roles = directory.roles.filter((r) => !r.managed);
  const bonusOpen = roles.some((r) => (sent?.get(bonusField(r.id)) ?? '') !== '') || problem?.errors.some((e) => e.field === F.bonus);
  return (
    <>
      <h2>Who may enter</h2>
      <RolesPicker name={F.roles} label="Required roles" hint="Up to 20; none: anyone may enter." directory={directory} selected={sent?.getAll(F.roles) ?? []} problem={problem} />
      <fieldset id={F.roleMode} {...invalidAttrs(problem, F.roleMode, true)}>
        <legend>With several required roles</legend>
        <FieldMessage problem={problem} field={F.roleMode} />
        <label class="check">
          <input type="radio" name={F.roleMode} value="any" checked={mode === 'any'} /> One of them is enough
        </label>
        <label class="check">
          <input type="radio" name={F.roleMode} value="all" checked={mode === 'all'} /> Every one is needed
        </label>
      </fieldset>
      <RolesPicker name={F.blockedRoles} label="Blocked roles" hint="Up to 20; members holding any of them cannot enter nor win." directory={directory} selected={sent?.getAll(F.blockedRoles) ?? []} problem={problem} />
      <NumberField name={F.accountAge} label="Minimum account age (days)" hint="0 to 3,650; 0: no requirement." value={value(F.accountAge, '0')} min={0} max={3650} problem={problem} />
      <NumberField name={F.memberDays} label="Minimum days in the server" hint="0 to 3,650; 0: no requirement." value={value(F.memberDays, '0')} min={0} max={3650} problem={problem} />
      <NumberField name={F.minLevel} label="Minimum level" hint="0 to 1,000; 0: no requirement." value={value(F.minLevel, '0')} min={0} max={1000} problem={problem} />
      <NumberField name={F.entryCost} label="Entry cost" hint="0 to 1,000,000,000, taken from the member's bank balance on entry and refunded on leaving; 0: free." value={value(F.entryCost, '0')} min={0} max={1_000_000_000} problem={problem} />
      <details open={bonusOpen}>
        <summary>Bonus entries by role</summary>
        <fieldset id={F.bonus} {...invalidAttrs(problem, F.bonus, true)}>
          <legend>Entries for members holding a role</legend>
          <span class="muted hint">2 to 10 entries, for at most 10 roles; a member holding several gets the highest. Leave empty for one entry.</span>
          <FieldMessage problem={problem} field={F.bonus} />
          {roles.map((r) => (
            <p>
              <label for={bonusField(r.id)}>@{r.name}</label>
              <input type="number" inputMode="numeric" id={bonusField(r.id)} name={bonusField(r.id)} value={sent?.get(bonusField(r.id)) ?? ''} min={2} max={10} step={1} />
            </p>
          ))}
        </fieldset>
      </details>
    </>
  );
}

/** Starts a giveaway now: the API's POST /giveaways body, the end given as a UTC date and time. */
export function StartGiveawayPage(props: { viewer: Viewer; guild: GuildRecord; directory: ServerDirectory; now: Date; form?: FormState }) {
  const { guild, directory, now } = props;
  const action = giveawaysPath(guild.id);
  const sent = props.form?.values;
  const problem = props.form?.problem;
  return (
    <Layout title="Start a giveaway" viewer={props.viewer} server={{ id: guild.id, name: guild.name, active: 'giveaways' }} hasErrors={!!problem}>
      <ErrorSummary problem={problem} />
      <form method="post" action={action} class="card">
        <FormFields viewer={props.viewer} action={action} />
        <p>
          The bot posts the giveaway in the channel within seconds, with an Enter button, and draws the winners at the end. Its look and whether
          winners get a direct message follow the server's Giveaways settings; you are its host.
        </p>
        <ChannelPicker name={F.channel} label="Channel" hint="A text or announcement channel." directory={directory} types={['text', 'announcement']} selected={sent?.get(F.channel)} problem={problem} />
        <TextField name={F.prize} label="Prize" hint="1 to 200 characters." value={sent?.get(F.prize) ?? ''} maxLength={200} required problem={problem} />
        <TextField rows={4} name={F.description} label="Description (optional)" hint="Up to 1,000 characters." value={sent?.get(F.description) ?? ''} maxLength={1000} problem={problem} />
        <NumberField name={F.winners} label="Winners" hint="1 to 50." value={sent?.get(F.winners) ?? '1'} min={1} max={50} problem={problem} />
        <p>
          <label for={F.endsAt}>Ends at (UTC)</label>
          <span id={`${F.endsAt}-hint`} class="muted hint">
            A date and time in UTC, not your local time: it is now {utcInputValue(now).replace('T', ' ')} UTC. 1 minute to {MAX_DAYS} days from now.
          </span>
          <FieldMessage problem={problem} field={F.endsAt} />
          <input
            type="datetime-local"
            id={F.endsAt}
            name={F.endsAt}
            value={sent?.get(F.endsAt) ?? utcInputValue(new Date(now.getTime() + DEFAULT_LENGTH_MS))}
            required
            aria-describedby={`${F.endsAt}-hint`}
            {...invalidAttrs(problem, F.endsAt)}
          />
        </p>
        <RolePicker name={F.pingRole} label="Role to ping (optional)" hint="Mentioned when the giveaway is posted." directory={directory} selected={sent?.get(F.pingRole)} none="No ping" problem={problem} />
        <Requirements directory={directory} form={props.form} />
        <button type="submit">Start the giveaway</button> <a href={action}>Cancel</a>
      </form>
    </Layout>
  );
}
