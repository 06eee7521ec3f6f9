import { TextField } from './fields.js';
import { FieldMessage, FormFields, invalidAttrs, type FormState } from './formParts.js';
import type { Viewer } from './layout.js';

/** What one area's decision form says: its field names (the inputs' ids), its choices and what a decision does. */
export interface DecisionLabels {
  fields: { choice: string; reason: string };
  choices: ReadonlyArray<{ value: string; label: string }>;
  /** What each choice does, said before the choice: a decision cannot be changed afterwards. */
  effects: string;
  reason: { label: string; hint: string; required?: boolean };
}

/** A final decision on a record (a submission, an appeal): one choice and the reason sent with it, confirmed on the next page. */
export function DecisionForm(props: { viewer: Viewer; action: string; labels: DecisionLabels; form?: FormState }) {
  const { action, labels } = props;
  const { choice, reason } = labels.fields;
  const problem = props.form?.problem;
  const picked = props.form?.values.get(choice);
  return (
    <form method="post" action={action} class="card">
      <h2>Decide</h2>
      <p>{labels.effects} The next page shows what your decision will do and asks you to confirm it: it cannot be changed afterwards.</p>
      <FormFields viewer={props.viewer} action={action} />
      <fieldset id={choice} {...invalidAttrs(problem, choice, true)}>
        <legend>Decision</legend>
        <FieldMessage problem={problem} field={choice} />
        {labels.choices.map((c) => (
          <label class="check">
            <input type="radio" name={choice} value={c.value} checked={picked === c.value} /> {c.label}
          </label>
        ))}
      </fieldset>
      <TextField
        rows={4}
        name={reason}
        label={labels.reason.label}
        hint={labels.reason.hint}
        value={props.form?.values.get(reason) ?? ''}
        maxLength={1000}
        required={labels.reason.required}
        problem={problem}
      />
      <button type="submit">Review the decision</button>
    </form>
  );
}
