import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signatureOf, signedHeaders } from '../../src/webhooks/signing.js';
import { verifyWebhook } from '../../src/webhooks/verifyWebhook.js';

const secret = 'whsec_test-secret';
const body = '{"id":"evt_1","type":"webhook.test","createdAt":"2026-11-22T12:00:00.000Z","guildId":"100000000000000001","data":{}}';
const signedAt = 1_795_000_000;
const now = new Date(signedAt * 1000);

describe('webhook signing', () => {
  it('signs "<timestamp>.<raw body>" with HMAC-SHA256 as v1=<hex>', () => {
    // Reference value computed independently: printf '%s' "1795000000.$body" | openssl dgst -sha256 -hmac "$secret"
    const headers = signedHeaders(secret, 'evt_1', signedAt, body);
    expect(headers['Service-Webhook-Id']).toBe('evt_1');
    expect(headers['Service-Webhook-Timestamp']).toBe('1795000000');
    expect(headers['Service-Signature']).toBe('v1=b12e1208e6edffa0a8c524b63f75107dcfa7053c1ee640030c00501d998b590a');
    expect(signatureOf(secret, signedAt, Buffer.from(body))).toBe('b12e1208e6edffa0a8c524b63f75107dcfa7053c1ee640030c00501d998b590a');
  });

  it('issues secrets with the whsec_ prefix and 256 random bits', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newWebhookSecret()).not.toBe(a);
  });
});

describe('verifyWebhook', () => {
  const headers = signedHeaders(secret, 'evt_1', signedAt, body);

  it('accepts a genuine delivery', () => {
    expect(verifyWebhook(body, headers, secret, { now })).toEqual({ ok: true, event: JSON.parse(body), timestamp: signedAt });
    expect(verifyWebhook(Buffer.from(body), new Headers(headers), secret, { now }).ok).toBe(true);
  });

  it('accepts any of several v1 values separated by spaces or commas', () => {
    const rotated = { ...headers, 'Service-Signature': `v1=${'0'.repeat(64)}, ${headers['Service-Signature']} v1=zz` };
    expect(verifyWebhook(body, rotated, secret, { now }).ok).toBe(true);
  });

  it.each([
    ['a changed body', body.replace('webhook.test', 'bank.transaction'), headers, 'no-matching-signature'],
    ['a re-serialised body', JSON.stringify(JSON.parse(body), null, 1), headers, 'no-matching-signature'],
    ['another secret', body, signedHeaders('whsec_other', 'evt_1', signedAt, body), 'no-matching-signature'],
    ['a missing signature', body, { ...headers, 'Service-Signature': undefined }, 'missing-headers'],
    ['a non-numeric timestamp', body, { ...headers, 'Service-Webhook-Timestamp': '12:00' }, 'bad-timestamp'],
  ])('rejects %s', (_label, raw, h, reason) => {
    expect(verifyWebhook(raw, h as Record<string, string>, secret, { now })).toEqual({ ok: false, reason });
  });

  it('rejects a timestamp more than 5 minutes from the receiver clock, either way', () => {
    expect(verifyWebhook(body, headers, secret, { now: new Date((signedAt + 300) * 1000) }).ok).toBe(true);
    expect(verifyWebhook(body, headers, secret, { now: new Date((signedAt + 301) * 1000) })).toEqual({ ok: false, reason: 'timestamp-out-of-tolerance' });
    expect(verifyWebhook(body, headers, secret, { now: new Date((signedAt - 301) * 1000) }).ok).toBe(false);
    expect(verifyWebhook(body, headers, secret, { now: new Date((signedAt + 600) * 1000), toleranceSec: 900 }).ok).toBe(true);
  });
});
