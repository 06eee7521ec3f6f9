import { randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { saveLevelSettings } from '../db/levels/members.js';
import { COMMAND_DEFINITIONS } from '../process/bot/commands/commandTable.js';
import { migrateToLatest } from '../db/migrate.js';
import { createDatabase } from '../db/pool.js';
import type { Database } from '../db/schema.js';
import { systemClock } from '../src/core/clock.js';
import type { Feature } from '../src/core/features.js';
import { createLogger } from '../src/core/logger.js';
import { createGuild } from '../src/guild/guildManagement.js';
import { createApplicationCommands } from '../src/platform/discord/applicationCommands.js';
import { createBanLatch } from '../src/platform/discord/banLatch.js';
import { syncCommands } from '../src/platform/discord/commandSync.js';
import { createDiscordRest } from '../src/platform/discord/discordRest.js';
import { BOT_INVITE_PERMISSIONS, addGuild, addMember, type FakeDiscord } from '../process/infra/fakeDiscord/index.js';
import { ensureDatabase, startEmbeddedPostgres, withDatabase } from '../process/infra/embeddedPostgres.js';
import { freePort } from '../process/infra/freePort.js';

// What the gateway benchmarks share: a PostgreSQL of their own, migrated, and servers seeded on the fake Discord
// and registered with the service.

export const benchSnowflake = () => `1${String(randomInt(0, 2 ** 47)).padStart(18, '0')}`;

/** Runs `work` against a fresh, migrated PostgreSQL (its URL and a pool of `poolMax`), then removes it. */
export async function withBenchDatabase<T>(poolMax: number, work: (db: Kysely<Database>, url: string) => Promise<T>): Promise<T> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cb-bench-bot-pg-'));
  const postgres = await startEmbeddedPostgres({ dataDir, port: await freePort(), persistent: false });
  try {
    await ensureDatabase(postgres.url, 'bench');
    const url = withDatabase(postgres.url, 'bench');
    const database = createDatabase(url, poolMax);
    try {
      await migrateToLatest(database.db);
      return await work(database.db, url);
    } finally {
      await database.close();
    }
  } finally {
    await postgres.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * `count` servers on the fake Discord, each with the bot (holding the invite link's permissions) and `members`
 * members, registered with `features` (and XP on every message, for the levels feature). Returns their ids.
 */
export async function seedBotServers(db: Kysely<Database>, fake: FakeDiscord, count: number, members: number, features: Feature[]): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const id = benchSnowflake();
    const ownerId = benchSnowflake();
    const botRole = benchSnowflake();
    const guild = addGuild(fake.state, {
      id,
      name: `bench ${n}`,
      ownerId,
      roles: [{ id: botRole, name: 'Community Bot', position: 1, managed: true, permissions: BOT_INVITE_PERMISSIONS }],
      channels: [{ id: benchSnowflake(), type: 0, name: 'general' }],
      members: [{ id: fake.state.bot.id, username: fake.state.bot.username, bot: true, roles: [botRole] }],
    });
    for (let m = 0; m < members; m += 1) addMember(fake.state, guild, { id: benchSnowflake(), username: `member${m}` });
    await createGuild(db, { id, name: `bench ${n}`, icon: null, locale: 'en', plan: 'pro', features, blocked: false, ownerId, botUserId: fake.state.bot.id, actor: { type: 'system' } });
    if (features.includes('levels')) await saveLevelSettings(db, id, { announceChannelId: null, announceTemplate: 'GG {user}', removePreviousRewards: false, messageCooldownSeconds: 0 });
    ids.push(id);
  }
  return ids;
}

/** The bot's application commands registered in the fake, as `npm run admin -- discord commands sync` registers them. */
export async function registerBenchCommands(fake: FakeDiscord): Promise<void> {
  const latch = createBanLatch({ clock: systemClock, logger: createLogger('silent', 'bench') });
  await syncCommands(createApplicationCommands(createDiscordRest({ token: fake.token, apiUrl: fake.apiUrl, latch })), [...COMMAND_DEFINITIONS]);
}
