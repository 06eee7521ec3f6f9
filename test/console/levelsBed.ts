import type { Kysely } from 'kysely';
import { upsertPlatformChannels, upsertPlatformRoles } from '../../db/platform/local.js';
import type { Database } from '../../db/schema.js';
import { snowflake } from '../harness/fixtures.js';
import { consoleClient, managedGuild } from './consoleClient.js';

/**
 * The levels pages' bed, shared by levelEdits.test.ts and levelXp.test.ts: a managed server with Levels on, roles
 * (one managed) and channels (one a category), its manager signed in on /levels; and what the levels actions write.
 */
export function levelsBed(db: () => Kysely<Database>, app: { baseUrl: string }) {
  async function signedIn(features = ['levels']) {
    const guild = await managedGuild(db(), 'Levels Guild');
    await db().updateTable('guilds').set({ features }).where('id', '=', guild.id).execute();
    const ids = { regular: snowflake(), muted: snowflake(), bots: snowflake(), general: snowflake(), spam: snowflake(), lobby: snowflake() };
    await upsertPlatformRoles(db(), guild.id, [
      { roleId: ids.regular, name: 'Regular', position: 1 },
      { roleId: ids.muted, name: 'Muted', position: 1 },
      { roleId: ids.bots, name: 'Bots', position: 1, managed: true },
    ]);
    await upsertPlatformChannels(db(), guild.id, [
      { channelId: ids.general, name: 'general', type: 'text', position: 1 },
      { channelId: ids.spam, name: 'bot-spam', type: 'text', position: 2 },
      { channelId: ids.lobby, name: 'Lobby', type: 'category', position: 3 },
    ]);
    const client = consoleClient(app.baseUrl);
    await client.signIn(guild.managerId);
    const path = `/console/servers/${guild.id}/levels`;
    await client.get(path);
    return { guild, client, path, ...ids };
  }

  const state = async (guildId: string) => ({
    settings: await db().selectFrom('level_settings').selectAll().where('guild_id', '=', guildId).execute(),
    rewards: await db().selectFrom('level_rewards').select(['level', 'role_id']).where('guild_id', '=', guildId).orderBy('level').execute(),
    changes: await db().selectFrom('xp_changes').select(['change_id', 'status']).where('guild_id', '=', guildId).execute(),
    members: await db().selectFrom('level_members').select(['user_id', 'xp']).where('guild_id', '=', guildId).orderBy('user_id').execute(),
    audit: await db().selectFrom('audit_log').select(['actor_type', 'actor_id', 'action', 'data']).where('guild_id', '=', guildId).where('action', 'like', 'levels.%').orderBy('id').execute(),
  });

  return { signedIn, state };
}

export type LevelsBed = Awaited<ReturnType<ReturnType<typeof levelsBed>['signedIn']>>;
