import { timingSafeEqual } from 'node:crypto';
import { signatureOf, WEBHOOK_HEADERS } from './signing.js';

export type WebhookHeaders = Record<string, string | string[] | undefined> | Headers;

export interface VerifyOptions {
  /** Largest accepted difference between the signing time and `now`, in seconds (spec: 300). */
  toleranceSec?: number;
  /** The receiver's clock; defaults to the current time. */
  now?: Date;
}

/** A delivered event: deduplicate on `id`, order by `createdAt` (deliveries can repeat and arrive out of order). */
export interface DeliveredEvent {
  id: string;
  type: string;
  createdAt: string;
  guildId: string;
  data: Record<string, unknown>;
}

export type VerifyResult =
  | { ok: true; event: DeliveredEvent; timestamp: number }
  | { ok: false; reason: 'missing-headers' | 'bad-timestamp' | 'timestamp-out-of-tolerance' | 'no-matching-signature' | 'invalid-body' };

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const wanted = name.toLowerCase();
  const entry = Object.entries(headers).find(([k]) => k.toLowerCase() === wanted)?.[1];
  return Array.isArray(entry) ? entry.join(',') : entry;
}

/**
 * For customers' receivers: checks a delivery against the endpoint's signing secret, over the raw body
 * as received (never a re-serialised JSON). The signature header may carry several `v1=` values
 * separated by spaces or commas (during a secret rotation); any one matching is enough.
 */
export function verifyWebhook(rawBody: string | Buffer, headers: WebhookHeaders, secret: string, options: VerifyOptions = {}): VerifyResult {
  const eventId = header(headers, WEBHOOK_HEADERS.id);
  const timestampText = header(headers, WEBHOOK_HEADERS.timestamp);
  const signatures = header(headers, WEBHOOK_HEADERS.signature);
  if (!eventId || !timestampText || !signatures) return { ok: false, reason: 'missing-headers' };
  if (!/^\d{1,12}$/.test(timestampText)) return { ok: false, reason: 'bad-timestamp' };
  const timestamp = Number(timestampText);
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSec ?? 300)) return { ok: false, reason: 'timestamp-out-of-tolerance' };
  const expected = Buffer.from(signatureOf(secret, timestamp, rawBody), 'hex');
  const candidates = signatures
    .split(/[\s,]+/)
    .filter((part) => part.startsWith('v1='))
    .map((part) => part.slice(3));
  // Every candidate is compared in constant time, whatever its position.
  let matched = false;
  for (const candidate of candidates) {
    if (!/^[0-9a-f]{64}$/i.test(candidate)) continue;
    if (timingSafeEqual(Buffer.from(candidate, 'hex'), expected)) matched = true;
  }
  if (!matched) return { ok: false, reason: 'no-matching-signature' };
  try {
    const event = JSON.parse(rawBody.toString()) as DeliveredEvent;
    return event.id === eventId ? { ok: true, event, timestamp } : { ok: false, reason: 'invalid-body' };
  } catch {
    return { ok: false, reason: 'invalid-body' };
  }
}
