import { ConsoleRefusal } from '../../../src/console/errors.js';
import type { EndpointFields } from '../../../src/webhooks/endpointManagement.js';

/** An endpoint form's fields as the use cases take them (their checks: URL guard, known event types, length). */
export function endpointFieldsOf(form: URLSearchParams): EndpointFields {
  const url = (form.get('url') ?? '').trim();
  if (!url) throw new ConsoleRefusal('INVALID_INPUT', 'Give the endpoint a URL.');
  return { url, events: [...new Set(form.getAll('events'))], description: form.get('description') ?? '' };
}
