import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listApiKeys } from '../../db/keys/apiKeys.js';
import { systemClock } from '../../src/core/clock.js';
import { DEMO_GUILD_ID, DEMO_OWNER_ID, seedDemoGuild } from '../../process/demo/demoGuild.js';
import { devApiKey, writeDevCredentials } from '../../process/dev/devCredentials.js';
import { SCOPES } from '../../src/core/scopes.js';
import { revokeApiKey } from '../../src/keys/keyManagement.js';
import { useTestDatabase } from '../harness/database.js';
import { createTestKey } from '../harness/fixtures.js';

const database = useTestDatabase();
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cb-dev-credentials-'));
  await seedDemoGuild(database.db);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const demo = { id: DEMO_GUILD_ID, ownerId: DEMO_OWNER_ID, botUserId: DEMO_OWNER_ID };

async function keyOf(file: string) {
  const key = await devApiKey(database.db, DEMO_GUILD_ID, DEMO_OWNER_ID, file);
  await writeDevCredentials(file, { baseUrl: 'http://127.0.0.1:3000/api/v1', temporalUiUrl: null, guildId: DEMO_GUILD_ID, apiKey: key });
  return key;
}

const activeDevKeys = async () => (await listApiKeys(database.db, DEMO_GUILD_ID)).filter((k) => k.name === 'dev' && !k.revokedAt);

describe('the dev API key', () => {
  it('is created with every scope, saved, and reused while it stays valid', async () => {
    const file = join(dir, 'reuse.json');
    const key = await keyOf(file);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ guildId: DEMO_GUILD_ID, apiKey: key });
    expect(await keyOf(file)).toBe(key);
    const [record] = await activeDevKeys();
    expect(record!.scopes).toEqual([...SCOPES]);
  });

  it('is replaced once revoked', async () => {
    const file = join(dir, 'revoked.json');
    const key = await keyOf(file);
    const record = (await activeDevKeys()).at(-1)!;
    await revokeApiKey(database.db, systemClock, { guildId: DEMO_GUILD_ID, id: record.id, actor: { type: 'system' } });
    const next = await keyOf(file);
    expect(next).not.toBe(key);
  });

  it('frees the oldest dev key when the plan limit is reached', async () => {
    const others = (await listApiKeys(database.db, DEMO_GUILD_ID)).filter((k) => !k.revokedAt).length;
    for (let i = others; i < 10; i++) await createTestKey(database.db, demo, { name: 'dev' });
    const oldest = (await activeDevKeys())[0]!;
    await keyOf(join(dir, 'lost.json'));
    const active = await activeDevKeys();
    expect(active).toHaveLength(10);
    expect(active.map((k) => k.id)).not.toContain(oldest.id);
  });
});
