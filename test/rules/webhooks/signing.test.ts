import { describe, expect, it } from 'vitest';
import { signatureOf, signedHeaders, WEBHOOK_HEADERS } from '../../../src/webhooks/signing.js';

// test/webhooks/verifyWebhook.test.ts covers an ASCII body signed as string and as Buffer; these add
// multi-byte bodies and the exact boundary between timestamp and body. Reference values from openssl:
//   printf '%s' "<timestamp>.<body>" | openssl dgst -sha256 -hmac "<secret>"
describe('signatureOf', () => {
  it.each([
    ['whsec_unicode', 1_700_000_000, '{"name":"Zoë 🪙"}', 'b6b6392bb4321254f28e1814344d1da04422699147841b54efc558220cba6cd0'],
    ['whsec_empty', 0, '', '944eea919fe72d65902e30a020897cdade0ef7fe3d10db503407154843b01138'],
    // "12" + "3.x" and "1" + "23.x" must not sign the same text.
    ['k', 12, '3.x', 'c50f2b955ed9b41c558d941cbcf1a862259ec74d774c99675680ac0358f136ca'],
    ['k', 1, '23.x', 'f45050aed74a66a48f426c49f3c75f801b78cab5ca4a480a5769f0c81ffdc961'],
  ])('signs with %s at %i', (secret, timestamp, body, expected) => {
    expect(signatureOf(secret, timestamp, body)).toBe(expected);
    expect(signatureOf(secret, timestamp, Buffer.from(body, 'utf8'))).toBe(expected);
  });

  it('puts the same signature in the v1= header', () => {
    const headers = signedHeaders('whsec_unicode', 'evt_2', 1_700_000_000, '{"name":"Zoë 🪙"}');
    expect(headers).toEqual({
      [WEBHOOK_HEADERS.id]: 'evt_2',
      [WEBHOOK_HEADERS.timestamp]: '1700000000',
      [WEBHOOK_HEADERS.signature]: 'v1=b6b6392bb4321254f28e1814344d1da04422699147841b54efc558220cba6cd0',
    });
    expect(Object.keys(headers)).toEqual(['Service-Webhook-Id', 'Service-Webhook-Timestamp', 'Service-Signature']);
  });
});
