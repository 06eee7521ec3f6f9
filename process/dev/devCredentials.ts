import { readFile, writeFile } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import { findCredential, listApiKeys } from '../../db/keys/apiKeys.js';
import type { Database } from '../../db/schema.js';
import { systemClock } from '../../src/core/clock.js';
import { SCOPES } from '../../src/core/scopes.js';
import { hashApiKey } from '../../src/keys/keyMaterial.js';
import { createApiKey, KeyManagementError, revokeApiKey } from '../../src/keys/keyManagement.js';

export interface DevCredentials {
  baseUrl: string;
  temporalUiUrl: string | null;
  guildId: string;
  apiKey: string;
}

async function readSavedKey(file: string): Promise<string | undefined> {
  try {
    return (JSON.parse(await readFile(file, 'utf8')) as Partial<DevCredentials>).apiKey;
  } catch {
    return undefined;
  }
}

/** The key saved by an earlier run while it still works for the guild with every scope; else a new one. */
export async function devApiKey(db: Kysely<Database>, guildId: string, createdBy: string, file: string): Promise<string> {
  const saved = await readSavedKey(file);
  if (saved) {
    const credential = await findCredential(db, hashApiKey(saved));
    const key = credential?.apiKey;
    const usable = key && key.guildId === guildId && !key.revokedAt && (!key.expiresAt || key.expiresAt > systemClock.now());
    if (usable && SCOPES.every((s) => key.scopes.includes(s))) return saved;
  }
  const create = () =>
    createApiKey(db, systemClock, {
      guildId,
      name: 'dev',
      scopes: [...SCOPES],
      expiresInDays: null,
      createdBy,
      actor: { type: 'operator', name: 'npm run dev' },
    });
  try {
    return (await create()).key;
  } catch (err) {
    if (!(err instanceof KeyManagementError && err.code === 'KEY_LIMIT_REACHED')) throw err;
    // Earlier dev runs whose credentials file was lost hold the slots: free the oldest active one.
    const now = systemClock.now();
    const oldest = (await listApiKeys(db, guildId)).find((k) => k.name === 'dev' && !k.revokedAt && (!k.expiresAt || k.expiresAt > now));
    if (!oldest) throw err;
    await revokeApiKey(db, systemClock, { guildId, id: oldest.id, actor: { type: 'operator', name: 'npm run dev' } });
    return (await create()).key;
  }
}

export async function writeDevCredentials(file: string, credentials: DevCredentials): Promise<void> {
  await writeFile(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
}
