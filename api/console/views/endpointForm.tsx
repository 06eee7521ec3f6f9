import type { ComponentChildren } from 'preact';
import { DESCRIPTION_MAX } from '../../../src/webhooks/endpointManagement.js';
import { ErrorSummary, FieldMessage, FormFields, invalidAttrs, type FormProblem } from './formParts.js';
import type { Viewer } from './layout.js';

export interface EndpointFormValues {
  url: string;
  description: string;
  events: string[];
}

export const EMPTY_ENDPOINT: EndpointFormValues = { url: '', description: '', events: [] };

/** The values of a sent endpoint form, to render it again with its problem. */
export const endpointValuesOf = (form: URLSearchParams): EndpointFormValues => ({
  url: form.get('url') ?? '',
  description: form.get('description') ?? '',
  events: form.getAll('events'),
});

/** The ids the endpoint form's fields carry (the error summary links to them). */
export const ENDPOINT_FIELDS = { url: 'endpoint-url', description: 'endpoint-description', events: 'endpoint-events' } as const;

/**
 * The fields of an endpoint, shared by the add and the edit forms (the same checks run behind both); a form that
 * came back shows its problem beside the field, its input kept.
 */
export function EndpointForm(props: {
  action: string;
  viewer: Viewer;
  values: EndpointFormValues;
  problem?: FormProblem;
  eventTypes: readonly string[];
  submit: string;
  children?: ComponentChildren;
}) {
  const { values, problem } = props;
  return (
    <form method="post" action={props.action} class="card" noValidate>
      {props.children}
      <ErrorSummary problem={problem} />
      <FormFields viewer={props.viewer} action={props.action} />
      <p>
        <label for={ENDPOINT_FIELDS.url}>URL</label>
        <FieldMessage problem={problem} field={ENDPOINT_FIELDS.url} />
        <input
          id={ENDPOINT_FIELDS.url}
          name="url"
          type="url"
          required
          maxLength={2048}
          placeholder="https://example.com/hooks"
          value={values.url}
          {...invalidAttrs(problem, ENDPOINT_FIELDS.url)}
        />
      </p>
      <p>
        <label for={ENDPOINT_FIELDS.description}>Description (optional)</label>
        <FieldMessage problem={problem} field={ENDPOINT_FIELDS.description} />
        <br />
        <textarea id={ENDPOINT_FIELDS.description} name="description" rows={2} cols={50} {...invalidAttrs(problem, ENDPOINT_FIELDS.description)}>
          {values.description}
        </textarea>
      </p>
      <fieldset {...invalidAttrs(problem, ENDPOINT_FIELDS.events, true)}>
        <legend>Event types (none picked: every event)</legend>
        <FieldMessage problem={problem} field={ENDPOINT_FIELDS.events} />
        {props.eventTypes.map((t, i) => (
          <label class="check">
            <input type="checkbox" name="events" value={t} checked={values.events.includes(t)} id={i === 0 ? ENDPOINT_FIELDS.events : undefined} /> {t}
          </label>
        ))}
      </fieldset>
      <p class="muted">The description is at most {DESCRIPTION_MAX} characters.</p>
      <button type="submit">{props.submit}</button>
    </form>
  );
}
