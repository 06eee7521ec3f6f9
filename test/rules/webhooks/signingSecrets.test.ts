import { describe, expect, it } from 'vitest';
import { signatureOf, signedHeaders } from '../../../src/webhooks/signing.js';
import { signingSecrets } from '../../../src/webhooks/signingSecrets.js';
import { verifyWebhook } from '../../../src/webhooks/verifyWebhook.js';

const until = new Date('2026-05-02T12:00:00.000Z');
const rotated = { secret: 'whsec_new', previousSecret: 'whsec_old', previousSecretExpiresAt: until };

describe('signingSecrets', () => {
  it.each([
    ['a day before the overlap ends', new Date(until.getTime() - 86_400_000), ['whsec_new', 'whsec_old']],
    ['a millisecond before it ends', new Date(until.getTime() - 1), ['whsec_new', 'whsec_old']],
    ['the moment it ends', until, ['whsec_new']],
    ['after it ended', new Date(until.getTime() + 1), ['whsec_new']],
  ])('signs %s with %j', (_, now, expected) => {
    expect(signingSecrets(rotated, now)).toEqual(expected);
  });

  it('signs with the current secret alone after a rotation without overlap', () => {
    expect(signingSecrets({ secret: 'whsec_new', previousSecret: null, previousSecretExpiresAt: null }, until)).toEqual(['whsec_new']);
  });
});

describe('signedHeaders with two secrets', () => {
  it('puts one v1= value per secret, the current one first, each verifying with its own secret only', () => {
    const body = '{"id":"evt_1","type":"webhook.test"}';
    const headers = signedHeaders(['whsec_new', 'whsec_old'], 'evt_1', 1_700_000_000, body);
    expect(headers['Service-Signature']).toBe(`v1=${signatureOf('whsec_new', 1_700_000_000, body)} v1=${signatureOf('whsec_old', 1_700_000_000, body)}`);
    const now = new Date(1_700_000_000_000);
    for (const secret of ['whsec_new', 'whsec_old']) expect(verifyWebhook(body, headers, secret, { now })).toMatchObject({ ok: true });
    expect(verifyWebhook(body, headers, 'whsec_other', { now })).toEqual({ ok: false, reason: 'no-matching-signature' });
  });
});
