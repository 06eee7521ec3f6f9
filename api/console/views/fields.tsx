import { FieldMessage, invalidAttrs, type FormProblem } from './formParts.js';

/**
 * A text input with its label, hint and error: one line, or a multi-line textarea when `rows` is given; `numeric` for a
 * whole number (a phone then shows digits).
 */
export function TextField(props: {
  /** The form field's name, also the input's id (the error summary links to it). */
  name: string;
  label: string;
  value: string;
  hint?: string;
  problem?: FormProblem;
  maxLength?: number;
  required?: boolean;
  rows?: number;
  numeric?: boolean;
}) {
  const hint = props.hint ? `${props.name}-hint` : undefined;
  const named = { id: props.name, name: props.name };
  const attrs = { maxLength: props.maxLength, required: props.required, 'aria-describedby': hint, ...invalidAttrs(props.problem, props.name) };
  return (
    <p>
      <label for={props.name}>{props.label}</label>
      {props.hint && (
        <span id={hint} class="muted hint">
          {props.hint}
        </span>
      )}
      <FieldMessage problem={props.problem} field={props.name} />
      {props.rows === undefined ? (
        <input type="text" inputMode={props.numeric ? 'numeric' : undefined} {...named} value={props.value} {...attrs} />
      ) : (
        <textarea {...named} rows={props.rows} {...attrs}>
          {props.value}
        </textarea>
      )}
    </p>
  );
}

/** A checkbox with its label (sent as `on` when ticked). */
export const CheckField = (props: { name: string; label: string; checked: boolean }) => (
  <p>
    <label class="check">
      <input type="checkbox" id={props.name} name={props.name} value="on" checked={props.checked} /> {props.label}
    </label>
  </p>
);
