import type { ComponentChildren } from 'preact';
import { DESCRIPTION_MAX } from '../../../src/webhooks/endpointManagement.js';
import { CsrfField } from './layout.js';

export interface EndpointFormValues {
  url: string;
  description: string;
  events: string[];
}

export const EMPTY_ENDPOINT: EndpointFormValues = { url: '', description: '', events: [] };

/** The fields of an endpoint, shared by the add and the edit forms (the same checks run behind both). */
export function EndpointForm(props: { action: string; csrf: string; values: EndpointFormValues; eventTypes: readonly string[]; submit: string; children?: ComponentChildren }) {
  const { values } = props;
  return (
    <form method="post" action={props.action} class="card">
      {props.children}
      <CsrfField token={props.csrf} />
      <p>
        <label for="endpoint-url">URL</label>
        <br />
        <input id="endpoint-url" name="url" type="url" required maxLength={2048} placeholder="https://example.com/hooks" value={values.url} />
      </p>
      <p>
        <label for="endpoint-description">Description (optional)</label>
        <br />
        <textarea id="endpoint-description" name="description" rows={2} cols={50} maxLength={DESCRIPTION_MAX}>
          {values.description}
        </textarea>
      </p>
      <fieldset>
        <legend>Event types (none picked: every event)</legend>
        {props.eventTypes.map((t) => (
          <label class="check">
            <input type="checkbox" name="events" value={t} checked={values.events.includes(t)} /> {t}
          </label>
        ))}
      </fieldset>
      <button type="submit">{props.submit}</button>
    </form>
  );
}
