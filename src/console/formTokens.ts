import { createHmac, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { claimFormSubmission, completeFormSubmission, findFormSubmission, releaseFormSubmission, type FormSubmissionKey } from '../../db/console/formSubmissions.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../core/clock.js';
import { ConsoleRefusal } from './errors.js';
import { hashToken, tokensEqual } from './tokens.js';

/** How long a rendered form can be sent: a working session outlives an idle one's 30 minutes. */
export const FORM_TOKEN_LIFETIME_MS = 2 * 3_600_000;
const SHAPE = /^([A-Za-z0-9_-]{22})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

const macOf = (sessionToken: string, action: string, nonce: string, expires: string) =>
  createHmac('sha256', sessionToken).update(`console-form\n${action}\n${nonce}\n${expires}`).digest('base64url');

/**
 * A one-time token for one form of one session: a random nonce, its expiry and an HMAC of both with the form's
 * action under the session token. Issuing stores nothing (a page may hold many forms); the POST takes the nonce
 * once in PostgreSQL (submitFormOnce). Useless with another session, another form or after its expiry.
 */
export function issueFormToken(sessionToken: string, action: string, now: Date): string {
  const nonce = randomBytes(16).toString('base64url');
  const expires = String(Math.floor((now.getTime() + FORM_TOKEN_LIFETIME_MS) / 1000));
  return `${nonce}.${expires}.${macOf(sessionToken, action, nonce, expires)}`;
}

function verifiedNonce(sessionToken: string, action: string, token: string, now: Date): string {
  const parts = SHAPE.exec(token);
  if (!parts) throw new ConsoleRefusal('FORM_TOKEN_INVALID', 'The form was not sent from its page (its one-time token is missing); open the page again and send the form from there.');
  const [, nonce, expires, mac] = parts as unknown as [string, string, string, string];
  if (!tokensEqual(mac, macOf(sessionToken, action, nonce, expires))) {
    throw new ConsoleRefusal('FORM_TOKEN_INVALID', 'The form’s one-time token does not belong to this form or this sign-in; open the page again and send the form from there.');
  }
  if (Number(expires) * 1000 <= now.getTime()) throw new ConsoleRefusal('FORM_TOKEN_INVALID', 'The form has expired; open the page again and send the form from there.');
  return nonce;
}

export interface FormSubmission {
  sessionToken: string;
  /** The path the form posts to (its `action`). */
  action: string;
  token: string;
}

interface Deps {
  db: Kysely<Database>;
  clock: Clock;
  /** How long a repeated POST waits for the first one's change to finish (real time: it waits on another request). */
  waitMs?: number;
}

/**
 * Runs a form's change once per form token and returns the page to send the browser to (post/redirect/get). The
 * same token again (reload, Back and resubmit, a double click) changes nothing and gets the first POST's page,
 * after waiting for it when the first is still under way. A change that throws gives the token back: nothing
 * happened, so the same form may be sent again.
 */
export async function submitFormOnce(deps: Deps, form: FormSubmission, change: () => Promise<string>): Promise<string> {
  const nonce = verifiedNonce(form.sessionToken, form.action, form.token, deps.clock.now());
  const key: FormSubmissionKey = { nonceHash: hashToken(nonce), sessionHash: hashToken(form.sessionToken) };
  const deadline = performance.now() + (deps.waitMs ?? 10_000);
  for (;;) {
    if (await claimFormSubmission(deps.db, key, deps.clock.now())) return runClaimed(deps.db, key, change);
    const first = await findFormSubmission(deps.db, key);
    if (first?.location) return first.location;
    // Gone: the first POST failed and gave the token back, so this one may take it.
    if (!first) continue;
    if (performance.now() >= deadline) throw new ConsoleRefusal('FORM_STILL_SENDING', 'This form was already sent and is still being handled; look at the page again in a moment.');
    await sleep(50);
  }
}

async function runClaimed(db: Kysely<Database>, key: FormSubmissionKey, change: () => Promise<string>): Promise<string> {
  let location: string;
  try {
    location = await change();
  } catch (err) {
    // The change's own error is the answer; a token left taken only makes a resend of this form wait and be refused.
    await releaseFormSubmission(db, key).catch(() => undefined);
    throw err;
  }
  await completeFormSubmission(db, key, location);
  return location;
}
