import { FieldMessage, invalidAttrs, type FormProblem } from './formParts.js';

interface FieldProps {
  /** The form field's name, also the input's id (the error summary links to it). */
  name: string;
  label: string;
  value: string;
  hint?: string;
  problem?: FormProblem;
}

/** A one-line text input with its label, hint and error; `numeric` for a whole number (a phone then shows digits). */
export function TextField(props: FieldProps & { maxLength?: number; required?: boolean; numeric?: boolean }) {
  const hint = props.hint ? `${props.name}-hint` : undefined;
  return (
    <p>
      <label for={props.name}>{props.label}</label>
      {props.hint && (
        <span id={hint} class="muted hint">
          {props.hint}
        </span>
      )}
      <FieldMessage problem={props.problem} field={props.name} />
      <input type="text" inputMode={props.numeric ? 'numeric' : undefined} id={props.name} name={props.name} value={props.value} maxLength={props.maxLength} required={props.required} aria-describedby={hint} {...invalidAttrs(props.problem, props.name)} />
    </p>
  );
}

/** A multi-line text input with its label, hint and error. */
export function TextArea(props: FieldProps & { maxLength?: number; rows?: number; required?: boolean }) {
  const hint = props.hint ? `${props.name}-hint` : undefined;
  return (
    <p>
      <label for={props.name}>{props.label}</label>
      {props.hint && (
        <span id={hint} class="muted hint">
          {props.hint}
        </span>
      )}
      <FieldMessage problem={props.problem} field={props.name} />
      <textarea id={props.name} name={props.name} rows={props.rows ?? 4} maxLength={props.maxLength} required={props.required} aria-describedby={hint} {...invalidAttrs(props.problem, props.name)}>
        {props.value}
      </textarea>
    </p>
  );
}
