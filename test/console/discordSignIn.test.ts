import { describe, expect, it } from 'vitest';
import { hashToken } from '../../src/console/tokens.js';
import { consoleClient, errorCodeOf } from './consoleClient.js';
import { CLIENT_ID, CLIENT_SECRET, useDiscordConsole } from './discordBed.js';

const bed = useDiscordConsole();

/** The browser's part of the flow: the console's redirect to Discord, Discord's redirect back. */
async function authorize(client: ReturnType<typeof consoleClient>, userId: string | undefined) {
  const start = await client.get('/console/sign-in/discord');
  expect(start.status).toBe(302);
  const authorizeUrl = new URL(start.headers.location!);
  bed.oauth.signInAs(userId);
  const answer = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  const callback = new URL(answer.headers.get('location')!);
  return { authorizeUrl, callback };
}

const sessionsOf = (userId: string) => bed.app.deps.db.selectFrom('console_sessions').selectAll().where('user_id', '=', userId).execute();

describe('Discord sign-in (OAuth2 with PKCE against the fake)', () => {
  it('offers Discord only, with state and an S256 challenge, and signs in a manager who then sees their servers with the bot', async () => {
    const guild = await bed.guild();
    const noBot = bed.guildWithoutBot(guild.adminId);
    const client = consoleClient(bed.app.baseUrl);
    const page = await client.get('/console/sign-in');
    expect(page.text).toContain('href="/console/sign-in/discord"');
    expect(page.text).not.toContain('/console/sign-in/local');

    const { authorizeUrl, callback } = await authorize(client, guild.adminId);
    expect(Object.fromEntries(authorizeUrl.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: CLIENT_ID,
      scope: 'identify guilds',
      redirect_uri: bed.redirectUri,
      code_challenge_method: 'S256',
    });
    expect(authorizeUrl.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
    expect(callback.toString().startsWith(bed.redirectUri)).toBe(true);

    const done = await client.get(callback.pathname + callback.search);
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe('/console');
    const servers = await client.get('/console');
    expect(servers.status).toBe(200);
    expect(servers.text).toContain(`/console/servers/${guild.id}/keys`);
    expect(servers.text).not.toContain(noBot);

    const exchange = bed.oauth.requests.find((r) => r.path === '/api/v10/oauth2/token')!;
    expect(exchange.status).toBe(200);
    expect(exchange.headers.authorization).toBe(`Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`);
    expect(exchange.form!.get('code_verifier')).toMatch(/^[\w-]{43}$/);
    const [session] = await sessionsOf(guild.adminId);
    expect(session!.guild_ids).toContain(guild.id);
    expect(session!.guild_ids).toContain(noBot);
    expect(JSON.stringify(session)).not.toContain(exchange.form!.get('code')!);
    expect((await bed.app.deps.db.selectFrom('console_sign_ins').select('state_hash').execute()).some((r) => r.state_hash.equals(hashToken(authorizeUrl.searchParams.get('state')!)))).toBe(false);
  });

  it('lists nothing for a member without Manage Server, whose forged POST is refused 403', async () => {
    const guild = await bed.guild();
    const client = consoleClient(bed.app.baseUrl);
    const { callback } = await authorize(client, guild.memberId);
    expect((await client.get(callback.pathname + callback.search)).status).toBe(303);
    const servers = await client.get('/console');
    expect(servers.text).toContain('data-empty="servers"');
    const forged = await client.post(`/console/servers/${guild.id}/keys`, { name: 'forged', scopes: 'guild:read' });
    expect(forged.status).toBe(403);
    expect(errorCodeOf(forged)).toBe('NOT_A_SERVER_MANAGER');
  });

  it('re-checks with Discord on every write, fresh within 5 minutes: a manager whose role was taken is refused 403', async () => {
    const guild = await bed.guild();
    const client = consoleClient(bed.app.baseUrl);
    const { callback } = await authorize(client, guild.adminId);
    await client.get(callback.pathname + callback.search);
    await client.get(`/console/servers/${guild.id}/keys`);
    expect((await client.post(`/console/servers/${guild.id}/keys`, { name: 'ok', scopes: 'guild:read' })).status).toBe(303);
    bed.fake.state.guilds.get(guild.id)!.members.get(guild.adminId)!.roles = [];
    // The adapter may answer from its member cache for up to 5 minutes (the issue's "fresh within a few minutes").
    bed.clock.advance(5 * 60_000 + 1_000);
    const refused = await client.post(`/console/servers/${guild.id}/keys`, { name: 'late', scopes: 'guild:read' });
    expect(refused.status).toBe(403);
    expect(errorCodeOf(refused)).toBe('NOT_A_SERVER_MANAGER');
  });

  it.each([
    ['a replayed callback', 'replay'],
    ['a state this service did not issue', 'forged-state'],
    ['a user who denies the authorization', 'denied'],
  ])('refuses %s with 400 SIGN_IN_FAILED and starts no session', async (_, kind) => {
    const guild = await bed.guild();
    const client = consoleClient(bed.app.baseUrl);
    const { callback } = await authorize(client, kind === 'denied' ? undefined : guild.adminId);
    if (kind === 'replay') {
      expect((await consoleClient(bed.app.baseUrl).get(callback.pathname + callback.search)).status).toBe(303);
      await bed.app.deps.db.deleteFrom('console_sessions').where('user_id', '=', guild.adminId).execute();
    }
    if (kind === 'forged-state') callback.searchParams.set('state', 'x'.repeat(43));
    const res = await client.get(callback.pathname + callback.search);
    expect(res.status).toBe(400);
    expect(errorCodeOf(res)).toBe('SIGN_IN_FAILED');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await sessionsOf(guild.adminId)).toEqual([]);
  });

  it('has no development sign-in in discord mode: 404', async () => {
    const guild = await bed.guild();
    const res = await consoleClient(bed.app.baseUrl).post('/console/sign-in/local', { userId: guild.ownerId }, { csrf: null });
    expect(res.status).toBe(404);
    expect(errorCodeOf(res)).toBe('SIGN_IN_UNAVAILABLE');
    expect(await sessionsOf(guild.ownerId)).toEqual([]);
  });
});
