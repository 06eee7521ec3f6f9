import { WebhookManagementError, type EndpointFields } from '../../../src/webhooks/endpointManagement.js';
import { FormRejection } from '../formFlow.js';
import { ENDPOINT_FIELDS } from '../views/endpointForm.js';

/** An endpoint form's fields as the use cases take them (they check the rest: URL guard, known types, length). */
export function endpointFieldsOf(form: URLSearchParams): EndpointFields {
  const url = (form.get('url') ?? '').trim();
  if (!url) throw new FormRejection(400, 'INVALID_INPUT', [{ field: ENDPOINT_FIELDS.url, message: 'Give the endpoint a URL.' }]);
  return { url, events: [...new Set(form.getAll('events'))], description: form.get('description') ?? '' };
}

const FIELD_OF: Partial<Record<WebhookManagementError['code'], string>> = {
  INVALID_URL: ENDPOINT_FIELDS.url,
  UNKNOWN_EVENT: ENDPOINT_FIELDS.events,
  INVALID_DESCRIPTION: ENDPOINT_FIELDS.description,
};

/** A refusal of the add or edit use case that the user fixes on the form itself, the field named. */
export function onTheEndpointForm(err: unknown): never {
  if (err instanceof WebhookManagementError) {
    const field = FIELD_OF[err.code];
    if (field) throw new FormRejection(422, err.code, [{ field, message: err.message }]);
    if (err.code === 'ENDPOINT_LIMIT_REACHED') {
      throw new FormRejection(409, err.code, [{ message: 'This server already has as many webhook endpoints as its plan allows. Remove one first.' }]);
    }
  }
  throw err;
}
