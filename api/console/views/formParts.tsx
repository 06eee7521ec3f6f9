import { CsrfField, type Viewer } from './layout.js';

/** One thing wrong with a sent form; `field` is the id of the input to fix (none: the form as a whole). */
export interface FieldError {
  field?: string;
  message: string;
}

/** Why a form came back: the status and code of the answer, and what to fix. */
export interface FormProblem {
  status: number;
  code: string;
  errors: FieldError[];
}

/** A sent form's values and, when it came back, its problem: what a form is rendered from again. */
export interface FormState {
  values: URLSearchParams;
  problem?: FormProblem;
}

export const FORM_TOKEN_FIELD = '_form';

/** The hidden fields of a state-changing form: the session's CSRF token and a one-time token for this form. */
export function FormFields(props: { viewer: Viewer; action: string }) {
  return (
    <>
      <CsrfField token={props.viewer.csrf} />
      <input type="hidden" name={FORM_TOKEN_FIELD} value={props.viewer.formToken(props.action)} />
    </>
  );
}

/**
 * At the top of a page whose form came back: each problem, linked to its field (WCAG 3.3.1 and 3.3.3, the GOV.UK
 * error summary). console.js moves the focus here; `data-error` carries the code as the error pages do.
 */
export function ErrorSummary({ problem }: { problem?: FormProblem }) {
  if (!problem) return null;
  return (
    <div class="error-summary" role="alert" tabIndex={-1} aria-labelledby="error-summary-title" data-error={problem.code} data-error-summary>
      <h2 id="error-summary-title">There is a problem</h2>
      <ul>
        {problem.errors.map((e) => (
          <li>{e.field ? <a href={`#${e.field}`}>{e.message}</a> : e.message}</li>
        ))}
      </ul>
    </div>
  );
}

const errorOf = (problem: FormProblem | undefined, field: string) => problem?.errors.find((e) => e.field === field);

/** The attributes of an input, or of a fieldset (`group`), whose value came back with an error. */
export function invalidAttrs(problem: FormProblem | undefined, field: string, group = false): Record<string, string> {
  if (!errorOf(problem, field)) return {};
  return group ? { 'aria-describedby': `${field}-error` } : { 'aria-invalid': 'true', 'aria-describedby': `${field}-error` };
}

/** The error message next to a field, the target of its aria-describedby. */
export function FieldMessage({ problem, field }: { problem?: FormProblem; field: string }) {
  const error = errorOf(problem, field);
  if (!error) return null;
  return (
    <p id={`${field}-error`} class="field-error">
      <span class="visually-hidden">Error: </span>
      {error.message}
    </p>
  );
}
