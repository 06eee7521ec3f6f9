import type { Kysely } from 'kysely';
import { saveModerationSettings } from '../../db/moderation/settings.js';
import { upsertPlatformMember } from '../../db/platform/local.js';
import type { Database } from '../../db/schema.js';
import { addMember, type FakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { createDiscordGuild } from '../harness/discordGuild.js';
import { eventually } from '../harness/eventually.js';
import { snowflake } from '../harness/fixtures.js';
import type { TestApp } from '../harness/testApp.js';
import { consoleClient } from './consoleClient.js';

export const casesOn = (html: string) => [...html.matchAll(/data-case="(\d+)"/g)].map((m) => Number(m[1]));
export const reasonOf = (r: { headers: Record<string, string> }) => decodeURIComponent(r.headers['x-audit-log-reason'] ?? '');

/**
 * The moderation console test files' setup on the fake Discord: the api and the worker use the Discord adapter, so
 * an action's effect is a real HTTP request to the fake. A server whose manager (Admin role) is signed in, the DMs a
 * user got, and the tables and Discord writes an action may change.
 */
export function moderationConsole(db: () => Kysely<Database>, app: TestApp, fake: FakeDiscord) {
  async function signedIn(options: { dm?: boolean } = {}) {
    const g = await createDiscordGuild(db(), fake);
    await saveModerationSettings(db(), g.id, { dmMembers: options.dm ?? true, logChannelId: null, warningExpirySeconds: null });
    const managerId = snowflake();
    addMember(fake.state, fake.state.guilds.get(g.id)!, { id: managerId, username: 'boss', roles: [g.roles.admin] });
    await upsertPlatformMember(db(), { guildId: g.id, userId: managerId, username: 'boss', bot: false, roleIds: [] });
    const client = consoleClient(app.baseUrl);
    await client.signIn(managerId);
    const path = `/console/servers/${g.id}/moderation`;
    return { g, managerId, client, path, actions: `${path}/actions` };
  }
  const dmsTo = (userId: string) => [...fake.state.messages.values()].filter((m) => m.channel_id === fake.state.dmChannels.get(userId));
  const writesTo = (guildId: string) => fake.requests.filter((r) => r.method !== 'GET' && r.path.includes(guildId)).length;
  const state = async (guildId: string, target: string) => ({
    actions: await db().selectFrom('moderation_actions').select(['action_id', 'status']).where('guild_id', '=', guildId).execute(),
    cases: await db().selectFrom('moderation_cases').select('number').where('guild_id', '=', guildId).execute(),
    audit: await db().selectFrom('audit_log').select('id').where('guild_id', '=', guildId).execute(),
    discordWrites: writesTo(guildId),
    dms: dmsTo(target).length,
  });
  /** Follows the action's status page until it is done or failed. */
  const finished = (client: ReturnType<typeof consoleClient>, statusPath: string) =>
    eventually(
      () => client.get(statusPath),
      (res) => /data-status="(done|failed)"/.test(res.text),
    );
  return { signedIn, dmsTo, state, finished };
}
