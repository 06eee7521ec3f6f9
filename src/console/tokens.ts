import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh unguessable token (256 bits, base64url): session cookies, OAuth2 `state`, PKCE verifiers. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** What is stored for a token: its SHA-256, so the table alone signs nobody in. */
export const hashToken = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/**
 * The CSRF token of a session: derived from the session token (HMAC), so nothing more is stored, and it is
 * useless without the cookie while the cookie cannot be read from it.
 */
export const csrfTokenOf = (sessionToken: string): string => createHmac('sha256', sessionToken).update('console-csrf').digest('base64url');

/** Constant-time comparison of two tokens (their hashes, so lengths never leak either). */
export function tokensEqual(a: string, b: string): boolean {
  return timingSafeEqual(hashToken(a), hashToken(b));
}

/** PKCE S256 challenge of a verifier (RFC 7636). */
export const pkceChallenge = (verifier: string): string => createHash('sha256').update(verifier, 'ascii').digest('base64url');

/** Whether `token` is the one whose stored hash is `hash`, compared in constant time. */
export function matchesHash(token: string, hash: Buffer): boolean {
  const mine = hashToken(token);
  return hash.length === mine.length && timingSafeEqual(mine, hash);
}
