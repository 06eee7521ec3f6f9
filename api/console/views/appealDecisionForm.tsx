import { TextArea } from './fields.js';
import { FieldMessage, FormFields, invalidAttrs, type FormState } from './formParts.js';
import type { Viewer } from './layout.js';

export const APPEAL_DECISION_FIELDS = { verb: 'appeal-verb', reason: 'appeal-reason' } as const;

/** Approve or reject an open appeal, with the reason the appellant is sent. */
export function AppealDecisionForm(props: { viewer: Viewer; action: string; form?: FormState }) {
  const { action } = props;
  const problem = props.form?.problem;
  const picked = props.form?.values.get(APPEAL_DECISION_FIELDS.verb);
  return (
    <form method="post" action={action} class="card">
      <h2>Decide</h2>
      <p>
        Approving lifts the ban (with an unban case when Moderation is on) and sends the appellant a single-use invite with your reason;
        rejecting sends your reason when the appeal settings say so and starts the re-appeal wait. The decision cannot be changed afterwards.
      </p>
      <FormFields viewer={props.viewer} action={action} />
      <fieldset id={APPEAL_DECISION_FIELDS.verb} {...invalidAttrs(problem, APPEAL_DECISION_FIELDS.verb, true)}>
        <legend>Decision</legend>
        <FieldMessage problem={problem} field={APPEAL_DECISION_FIELDS.verb} />
        <label class="check">
          <input type="radio" name={APPEAL_DECISION_FIELDS.verb} value="approve" checked={picked === 'approve'} /> Approve (unban)
        </label>
        <label class="check">
          <input type="radio" name={APPEAL_DECISION_FIELDS.verb} value="reject" checked={picked === 'reject'} /> Reject
        </label>
      </fieldset>
      <TextArea
        name={APPEAL_DECISION_FIELDS.reason}
        label="Reason"
        hint="Sent to the appellant and added to the conversation; up to 1,000 characters."
        value={props.form?.values.get(APPEAL_DECISION_FIELDS.reason) ?? ''}
        maxLength={1000}
        required
        problem={problem}
      />
      <button type="submit">Record the decision</button>
    </form>
  );
}
