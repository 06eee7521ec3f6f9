import { createHmac, randomBytes } from 'node:crypto';

/** Header names of a delivery (spec: Events, Delivery). */
export const WEBHOOK_HEADERS = {
  id: 'Service-Webhook-Id',
  timestamp: 'Service-Webhook-Timestamp',
  signature: 'Service-Signature',
} as const;

export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/** hex HMAC-SHA256(secret, "<timestamp>.<raw body>"). */
export function signatureOf(secret: string, timestamp: number, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/**
 * The three headers of one attempt, signed at `timestamp` (Unix seconds) with each secret that signs now: one `v1=`
 * value per secret, separated by a space (spec: Delivery), the current secret's first.
 */
export function signedHeaders(secrets: string | readonly string[], eventId: string, timestamp: number, rawBody: string): Record<string, string> {
  return {
    [WEBHOOK_HEADERS.id]: eventId,
    [WEBHOOK_HEADERS.timestamp]: String(timestamp),
    [WEBHOOK_HEADERS.signature]: [secrets].flat().map((secret) => `v1=${signatureOf(secret, timestamp, rawBody)}`).join(' '),
  };
}
