import { expect } from 'vitest';
import type { ConsoleClient } from './consoleClient.js';
import { errorCodeOf, fieldErrorOf } from './consoleClient.js';

/**
 * A decision's first step on a record's page (`record`: its path): the form goes to the confirmation (303, the checked
 * values as `query`), whose page answers 200. Returns the confirmation's path (its action) and page.
 */
export async function askDecision(client: ConsoleClient, record: string, fields: Record<string, string>, query: string) {
  const asked = await client.post(`${record}/decision`, fields);
  const confirm = `${record}/decision/confirm`;
  expect([asked.status, asked.headers.location]).toEqual([303, `${confirm}?${query}`]);
  const page = await client.get(asked.headers.location!);
  expect(page.status).toBe(200);
  return { confirm, page };
}

/** Where a confirmation page's Cancel goes, as a browser follows it. */
export const cancelOf = (html: string) => /href="([^"]+)">Cancel<\/a>/.exec(html)![1]!.replaceAll('&amp;', '&');

/**
 * The same bad input sent to the record's decision form, to its confirmation page and to the confirmation's action:
 * each 400 INVALID_INPUT with `message` on `field`, the decision form shown again. The confirmation's form must have
 * been opened (its token) before.
 */
export async function expectRefusedAtEachStep(client: ConsoleClient, record: string, fields: Record<string, string>, field: string, message: string) {
  const confirm = `${record}/decision/confirm`;
  const sent: Array<[string, () => ReturnType<ConsoleClient['get']>]> = [
    ['form', () => client.post(`${record}/decision`, fields)],
    ['page', () => client.get(`${confirm}?${new URLSearchParams(fields).toString()}`)],
    ['action', () => client.post(confirm, fields)],
  ];
  for (const [where, send] of sent) {
    const res = await send();
    expect([where, res.status, errorCodeOf(res), fieldErrorOf(res.text, field)]).toEqual([where, 400, 'INVALID_INPUT', message]);
    expect(res.text).toContain('Review the decision</button>');
  }
}
