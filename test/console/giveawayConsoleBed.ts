import { afterAll, beforeAll, expect } from 'vitest';
import { addMember, attachFakeOAuth, startFakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { freePort } from '../../process/infra/freePort.js';
import { fixedClock } from '../../src/core/clock.js';
import { createGiveaway } from '../../src/giveaways/createGiveaway.js';
import { GiveawayStartRequest } from '../../src/giveaways/contract.js';
import { enterGiveaway } from '../../src/giveaways/enterGiveaway.js';
import { createDiscordGuild, discordPlatformOn } from '../harness/discordGuild.js';
import { snowflake } from '../harness/fixtures.js';
import { temporalServerNow } from '../harness/temporal.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { consoleClient } from './consoleClient.js';
import { CLIENT_ID, CLIENT_SECRET } from './discordBed.js';

/**
 * The console in discord mode on the fake Discord with a real worker: a giveaway started from the dashboard is
 * posted by the giveaway workflow through the Discord adapter, its end and rerolls drawn by the same workflow.
 * Workflows run on the Temporal server's time: a giveaway's workflow waits until its start by that time before it
 * posts. So the app's and the worker's clock are one clock fixed at the server's time when the file starts (every
 * "in the past" check and every batch end reads it), whatever the host's clock says (under faketime it is not
 * the server's), and a giveaway's end is set from it, never from a date written in the test.
 */
export async function useGiveawayConsole() {
  const fake = await startFakeDiscord();
  const oauth = attachFakeOAuth(fake, { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  afterAll(() => fake.close());
  const port = await freePort();
  const platform = discordPlatformOn(fake);
  // Set to the Temporal server's time before the first test (below), once the server answers.
  const clock = fixedClock(new Date());
  const env = {
    PLATFORM: 'discord',
    DISCORD_TOKEN: fake.token,
    DISCORD_API_URL: fake.apiUrl,
    DISCORD_CLIENT_ID: CLIENT_ID,
    DISCORD_CLIENT_SECRET: CLIENT_SECRET,
    CONSOLE_REDIRECT_URI: `http://127.0.0.1:${port}/console/oauth/callback`,
    DISCORD_OAUTH_AUTHORIZE_URL: `${new URL(fake.apiUrl).origin}/oauth2/authorize`,
    CONSOLE_SIGN_IN_LIMIT: '1000',
  };
  const bed = useWorkflowTestBed({ worker: { platform, clock }, app: { port, clock, env, deps: { platform } } });
  beforeAll(async () => clock.set(await temporalServerNow(bed.gateway)));
  const db = bed.db;

  /** A server on the fake with a manager (the Admin role) signed in to the console through Discord's OAuth2. */
  async function signedIn() {
    const guild = await createDiscordGuild(db(), fake);
    const managerId = snowflake();
    addMember(fake.state, fake.state.guilds.get(guild.id)!, { id: managerId, username: 'boss', roles: [guild.roles.admin] });
    const client = consoleClient(bed.app.baseUrl);
    const start = await client.get('/console/sign-in/discord');
    oauth.signInAs(managerId);
    const callback = new URL((await fetch(new URL(start.headers.location!), { redirect: 'manual' })).headers.get('location')!);
    expect((await client.get(callback.pathname + callback.search)).status).toBe(303);
    await client.get('/console');
    return { guild, managerId, client, path: `/console/servers/${guild.id}/giveaways` };
  }

  /** A giveaway made by the start use case without its workflow: a row for the lists, in the status given. */
  async function giveawayRow(guildId: string, channelId: string, prize: string, status: 'ended' | 'cancelled' = 'ended') {
    const body = GiveawayStartRequest.parse({ channelId, prize, durationSeconds: 3600 });
    const at = clock.now();
    const g = await db()
      .transaction()
      .execute((trx) => createGiveaway(trx, { guildId, body, defaultHostId: channelId, at, actor: { type: 'system' } }));
    await db().updateTable('giveaways').set({ status, workflow_started_at: at }).where('guild_id', '=', guildId).where('id', '=', g.id).execute();
    return g.id;
  }

  /**
   * A member of the fake server entering as the Enter button does (the area's use case, the member read from
   * Discord), each entry a millisecond after the one before: the clock itself stays, as the workflows' real time
   * would otherwise fall behind it.
   */
  let entries = 0;
  async function enter(guildId: string, giveawayId: number, userId: string) {
    const member = await platform.getMember(guildId, userId);
    const at = new Date(clock.now().getTime() + ++entries);
    const result = await db()
      .transaction()
      .execute((trx) => enterGiveaway(trx, { guildId, giveawayId, userId, member, at, actor: { type: 'member', userId } }));
    expect(result).toMatchObject({ entered: true });
  }

  return { ...bed, fake, platform, clock, signedIn, giveawayRow, enter };
}
