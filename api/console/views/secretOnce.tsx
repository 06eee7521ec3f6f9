import type { ComponentChildren } from 'preact';

/**
 * A secret shown once, with a copy button (console.js; without JavaScript the field is still selectable). Without
 * a value (the result page opened again: its flash was taken) it says so, with what to do instead.
 */
export function SecretOnce(props: { label: string; value: string | undefined; id: string; gone: ComponentChildren }) {
  if (props.value === undefined) {
    return (
      <p class="notice" data-secret-gone>
        {props.gone}
      </p>
    );
  }
  return (
    <div class="secret">
      <label for={props.id}>{props.label}</label>
      <input id={props.id} value={props.value} readOnly spellcheck={false} autocomplete="off" data-secret />
      <button type="button" data-copy={props.id}>
        Copy
      </button>
      <p role="status" class="muted" data-copied-for={props.id}></p>
      <p>This is the only time it is shown: store it now. Reloading this page will not show it again.</p>
    </div>
  );
}
