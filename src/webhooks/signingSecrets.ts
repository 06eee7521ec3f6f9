/** An endpoint's secrets as stored: the current one, and the one a rotation with an overlap replaced. */
export interface EndpointSecrets {
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/** A rotation's choice: the old secret stops at once, or keeps signing beside the new one for 24 hours. */
export const SECRET_OVERLAPS = { now: 0, '24h': 24 * 60 * 60 * 1000 } as const;
export type SecretOverlap = keyof typeof SECRET_OVERLAPS;

/**
 * The secrets that sign an attempt made at `now`: the current one first, then the previous one while its overlap
 * lasts (its expiry is exclusive), so a receiver still holding the old secret verifies until then.
 */
export function signingSecrets(endpoint: EndpointSecrets, now: Date): string[] {
  const previousSigns = endpoint.previousSecret !== null && endpoint.previousSecretExpiresAt !== null && now < endpoint.previousSecretExpiresAt;
  return previousSigns ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}
