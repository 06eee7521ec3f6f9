import { FieldMessage, invalidAttrs, type FormProblem } from './formParts.js';

/** The ids (and names) of the start form's fields; the error summary links to them. */
export const GIVEAWAY_FIELDS = {
  channel: 'giveaway-channel',
  prize: 'giveaway-prize',
  description: 'giveaway-description',
  winners: 'giveaway-winners',
  endsAt: 'giveaway-ends-at',
  pingRole: 'giveaway-ping-role',
  roles: 'giveaway-roles',
  roleMode: 'giveaway-role-mode',
  blockedRoles: 'giveaway-blocked-roles',
  accountAge: 'giveaway-account-age',
  memberDays: 'giveaway-member-days',
  minLevel: 'giveaway-min-level',
  entryCost: 'giveaway-entry-cost',
  bonus: 'giveaway-bonus',
} as const;

/** One bonus-entries input per role: `giveaway-bonus-<roleId>`. */
export const bonusField = (roleId: string) => `${GIVEAWAY_FIELDS.bonus}-${roleId}`;

/** A date-time as the start form shows and takes it: UTC, to the minute, the way a datetime-local input writes it. */
export const utcInputValue = (d: Date) => d.toISOString().slice(0, 16);

/** A whole-number input with its label, hint (the spec's bounds) and error. */
export function NumberField(props: { name: string; label: string; value: string; hint: string; min: number; max: number; problem?: FormProblem }) {
  const hint = `${props.name}-hint`;
  return (
    <p>
      <label for={props.name}>{props.label}</label>
      <span id={hint} class="muted hint">
        {props.hint}
      </span>
      <FieldMessage problem={props.problem} field={props.name} />
      <input
        type="number"
        inputMode="numeric"
        id={props.name}
        name={props.name}
        value={props.value}
        min={props.min}
        max={props.max}
        step={1}
        aria-describedby={hint}
        {...invalidAttrs(props.problem, props.name)}
      />
    </p>
  );
}
