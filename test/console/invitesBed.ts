import type { Kysely } from 'kysely';
import { upsertPlatformMember } from '../../db/platform/local.js';
import type { Database } from '../../db/schema.js';
import { addMember, type FakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { createDiscordGuild } from '../harness/discordGuild.js';
import { snowflake } from '../harness/fixtures.js';
import type { TestApp } from '../harness/testApp.js';
import { consoleClient, consoleUserAudit } from './consoleClient.js';

/** An error page's status and code, as a pair to compare. */
export const problemOf = (res: { status: number; text: string }) => [res.status, /data-error="([A-Z_]+)"/.exec(res.text)?.[1]];

/**
 * The invites console test files' setup on the fake Discord (PLATFORM=discord): a server with its manager signed in
 * and members to add, the console user's audit rows, and the invites tables a page's action may change.
 */
export function invitesConsole(db: () => Kysely<Database>, app: TestApp, fake: FakeDiscord) {
  async function signedIn() {
    const g = await createDiscordGuild(db(), fake);
    const managerId = snowflake();
    addMember(fake.state, fake.state.guilds.get(g.id)!, { id: managerId, username: 'boss', roles: [g.roles.admin] });
    // The development sign-in offers the local platform's people; the manager rule is then asked of Discord.
    await upsertPlatformMember(db(), { guildId: g.id, userId: managerId, username: 'boss', bot: false, roleIds: [] });
    const client = consoleClient(app.baseUrl);
    await client.signIn(managerId);
    const member = (username: string) => {
      const id = snowflake();
      addMember(fake.state, fake.state.guilds.get(g.id)!, { id, username, roles: [g.roles.member] });
      return id;
    };
    return { g, managerId, client, member, path: `/console/servers/${g.id}/invites` };
  }

  const consoleAudit = (guildId: string) => consoleUserAudit(db(), guildId);

  const state = async (guildId: string) => ({
    members: await db().selectFrom('invite_members').select(['user_id', 'bonus', 'invites']).where('guild_id', '=', guildId).orderBy('user_id').execute(),
    seasons: await db().selectFrom('invite_seasons').select(['number', 'name', 'ended_at']).where('guild_id', '=', guildId).orderBy('number').execute(),
    milestones: await db().selectFrom('invite_milestones').select(['invites', 'role_id']).where('guild_id', '=', guildId).orderBy('invites').execute(),
    checks: await db().selectFrom('invite_milestone_checks').select('id').where('guild_id', '=', guildId).execute(),
    audit: await db().selectFrom('audit_log').select('id').where('guild_id', '=', guildId).execute(),
  });
  return { signedIn, consoleAudit, state };
}
