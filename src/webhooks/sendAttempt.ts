import { request, type Dispatcher } from 'undici';
import { webhookAttempts } from '../core/metrics.js';
import { ATTEMPT_TIMEOUT_MS, RESPONSE_EXCERPT_BYTES } from './delivery.js';
import { signedHeaders } from './signing.js';

export interface AttemptTarget {
  url: string;
  /** The secrets that sign now (signingSecrets): the current one, and the previous one during a rotation's overlap. */
  secrets: readonly string[];
  eventId: string;
  body: string;
}

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  durationMs: number;
  /** The signed headers sent, kept with the attempt so the console shows what the receiver had to verify. */
  requestHeaders: Record<string, string>;
}

async function excerpt(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= RESPONSE_EXCERPT_BYTES) break;
  }
  return Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
}

/**
 * One attempt: POST the stored body, signed at `signedAt` (Unix seconds) with the endpoint's signing secrets;
 * any 2xx within 10 s succeeds, anything else (status, timeout, refused address, TLS, redirect) fails.
 * `dispatcher` is the guarded one, which checks the address actually dialled.
 */
export async function sendAttempt(dispatcher: Dispatcher, target: AttemptTarget, signedAt: number, signal?: AbortSignal): Promise<AttemptResult> {
  const started = performance.now();
  const headers = signedHeaders(target.secrets, target.eventId, signedAt, target.body);
  let statusCode: number | null = null;
  let error: string | null = null;
  let responseExcerpt: string | null = null;
  try {
    const timeout = AbortSignal.timeout(ATTEMPT_TIMEOUT_MS);
    const res = await request(target.url, {
      method: 'POST',
      body: target.body,
      headers: { 'content-type': 'application/json', 'user-agent': 'community-bot-webhooks/1', ...headers },
      dispatcher,
      headersTimeout: ATTEMPT_TIMEOUT_MS,
      bodyTimeout: ATTEMPT_TIMEOUT_MS,
      signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
    });
    statusCode = res.statusCode;
    responseExcerpt = await excerpt(res.body);
    res.body.destroy();
    if (statusCode >= 300 && statusCode < 400) error = 'redirects are not followed';
  } catch (err) {
    error = (err as Error).message.slice(0, 500);
  }
  const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
  webhookAttempts.inc({ outcome: ok ? 'delivered' : statusCode === null ? 'failed' : 'rejected' });
  return { ok, statusCode, error, responseExcerpt, durationMs: Math.round(performance.now() - started), requestHeaders: headers };
}
