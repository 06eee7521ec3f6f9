import { hash, randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'svc_';
/** `svc_` + 43 base64url characters = 32 random bytes (256 bits), as the spec's Authentication section says. */
export const API_KEY_PATTERN = /^svc_[A-Za-z0-9_-]{43}$/;
const DISPLAY_LENGTH = KEY_PREFIX.length + 8;

export interface KeyMaterial {
  key: string;
  hash: Buffer;
  prefix: string;
}

export function hashApiKey(key: string): Buffer {
  return hash('sha256', key, 'buffer');
}

/** `hashApiKey` in base64, in one call without a Buffer: a presented key's digest, its credential cache key. */
export function hashApiKeyBase64(key: string): string {
  return hash('sha256', key, 'base64');
}

export function generateApiKey(): KeyMaterial {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, hash: hashApiKey(key), prefix: key.slice(0, DISPLAY_LENGTH) };
}
