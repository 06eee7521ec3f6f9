import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { putFlash, takeFlash } from '../../db/console/flashes.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../core/clock.js';
import { hashToken } from './tokens.js';

/** Long enough to follow a redirect on a slow connection; a flash never read ends with its session anyway. */
export const FLASH_LIFETIME_MS = 10 * 60_000;

export type FlashValue = Record<string, string | number | boolean | null>;

interface Deps {
  db: Kysely<Database>;
  clock: Clock;
}

/**
 * The flash's key: HKDF-SHA-256 of the raw session token (which the database never holds: only its SHA-256) with
 * the page's path as salt. A copy of the table, or of the table and the sessions, opens no flash.
 */
const keyOf = (sessionToken: string, path: string) => Buffer.from(hkdfSync('sha256', sessionToken, path, 'console-flash-v1', 32));

/**
 * Keeps a value (a secret shown once) for the one page after a redirect: sealed with AES-256-GCM, bound to the
 * session and the page's path (the key's salt and the associated data), for FLASH_LIFETIME_MS.
 */
export async function keepFlash(deps: Deps, sessionToken: string, path: string, value: FlashValue): Promise<void> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(sessionToken, path), iv);
  cipher.setAAD(Buffer.from(path, 'utf8'));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final(), cipher.getAuthTag()]);
  await putFlash(deps.db, hashToken(sessionToken), path, { iv, sealed }, new Date(deps.clock.now().getTime() + FLASH_LIFETIME_MS));
}

/** The value kept for this session's page, taken once (a second read finds nothing); undefined when none is left. */
export async function takeFlashValue(deps: Deps, sessionToken: string, path: string): Promise<FlashValue | undefined> {
  const flash = await takeFlash(deps.db, hashToken(sessionToken), path, deps.clock.now());
  if (!flash) return undefined;
  const decipher = createDecipheriv('aes-256-gcm', keyOf(sessionToken, path), flash.iv);
  decipher.setAAD(Buffer.from(path, 'utf8'));
  decipher.setAuthTag(flash.sealed.subarray(-16));
  try {
    const plain = Buffer.concat([decipher.update(flash.sealed.subarray(0, -16)), decipher.final()]);
    return JSON.parse(plain.toString('utf8')) as FlashValue;
  } catch {
    // Tampered with or sealed for something else: nothing to show, as if already shown.
    return undefined;
  }
}
