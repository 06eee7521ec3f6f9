import { describe, expect, it } from 'vitest';
import { hashToken } from '../../src/console/tokens.js';
import { LEVEL } from '../harness/capturedLogs.js';
import { createHttpClient } from '../harness/httpClient.js';
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

const stateHashOf = (callback: URL) => hashToken(callback.searchParams.get('state')!);
const pendingSignIn = (callback: URL) => bed.app.deps.db.selectFrom('console_sign_ins').selectAll().where('state_hash', '=', stateHashOf(callback)).executeTakeFirst();
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
    expect(servers.text).toContain(`/console/servers/${guild.id}/overview`);
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

  it.each([
    ['a replayed callback', 'replay'],
    ['a state this service did not issue', 'forged-state'],
    ['a user who denies the authorization', 'denied'],
    ['a sign-in left at Discord more than 10 minutes', 'expired'],
    ['a sign-in begun before sign-ins were bound to the browser', 'unbound'],
  ])('refuses %s with 400 SIGN_IN_FAILED and starts no session', async (_, kind) => {
    const guild = await bed.guild();
    const client = consoleClient(bed.app.baseUrl);
    const { callback } = await authorize(client, kind === 'denied' ? undefined : guild.adminId);
    if (kind === 'replay') {
      const signInCookie = client.state.signIn;
      expect((await client.get(callback.pathname + callback.search)).status).toBe(303);
      await bed.app.deps.db.deleteFrom('console_sessions').where('user_id', '=', guild.adminId).execute();
      client.state.cookie = '';
      client.state.signIn = signInCookie;
    }
    if (kind === 'forged-state') callback.searchParams.set('state', 'x'.repeat(43));
    if (kind === 'expired') bed.clock.advance(10 * 60_000 + 1_000);
    if (kind === 'unbound') await bed.app.deps.db.updateTable('console_sign_ins').set({ browser_hash: null }).where('state_hash', '=', stateHashOf(callback)).execute();
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

describe('Discord sign-in bound to the browser that began it (login CSRF)', () => {
  it('sets a 10-minute HttpOnly sign-in cookie whose nonce is stored as its hash only, and clears it at the callback', async () => {
    const guild = await bed.guild();
    const client = consoleClient(bed.app.baseUrl);
    const start = await client.get('/console/sign-in/discord');
    const line = (start.headers['set-cookie'] ?? []).find((l) => l.startsWith('console_sign_in='))!;
    expect(line).toMatch(/^console_sign_in=[\w-]{43}; Max-Age=600; Path=\/; SameSite=Lax; HttpOnly$/);
    const nonce = client.state.signIn.split('=')[1]!;
    bed.oauth.signInAs(guild.adminId);
    const callback = new URL((await fetch(start.headers.location!, { redirect: 'manual' })).headers.get('location')!);
    const pending = await pendingSignIn(callback);
    expect(pending!.browser_hash!.equals(hashToken(nonce))).toBe(true);
    expect(JSON.stringify(pending)).not.toContain(nonce);

    const done = await client.get(callback.pathname + callback.search);
    expect(done.status).toBe(303);
    expect(done.headers['set-cookie']).toContain('console_sign_in=; Max-Age=0; Path=/; SameSite=Lax; HttpOnly');
    expect(client.state.signIn).toBe('');
    expect(await sessionsOf(guild.adminId)).toHaveLength(1);
  });

  it('names the cookie __Host- and marks it Secure on any host but plain-HTTP localhost', async () => {
    const res = await createHttpClient(bed.app.baseUrl)('GET', '/console/sign-in/discord', { headers: { Host: 'console.example.com' } });
    expect(res.status).toBe(302);
    expect(res.headers['set-cookie']).toEqual([expect.stringMatching(/^__Host-console_sign_in=[\w-]{43}; Max-Age=600; Path=\/; SameSite=Lax; Secure; HttpOnly$/)]);
  });

  it.each([
    ['holds no sign-in cookie', false],
    ['holds the cookie of a sign-in of its own', true],
  ])('refuses 400 SIGN_IN_FAILED when a second browser that %s opens the first one\'s callback; its session survives, the first browser still signs in', async (_, ownSignIn) => {
    const attacker = await bed.guild();
    const victimGuild = await bed.guild();
    const victim = consoleClient(bed.app.baseUrl);
    const victimSignIn = await authorize(victim, victimGuild.adminId);
    expect((await victim.get(victimSignIn.callback.pathname + victimSignIn.callback.search)).status).toBe(303);
    const victimCookie = victim.state.cookie;

    const first = consoleClient(bed.app.baseUrl);
    const { callback } = await authorize(first, attacker.adminId);
    if (ownSignIn) expect((await victim.get('/console/sign-in/discord')).status).toBe(302);
    const refused = await victim.get(callback.pathname + callback.search);
    expect(refused.status).toBe(400);
    expect(errorCodeOf(refused)).toBe('SIGN_IN_FAILED');
    expect(refused.text).toContain('not started in this browser');
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect(await sessionsOf(attacker.adminId)).toEqual([]);
    expect(victim.state.cookie).toBe(victimCookie);
    expect(await sessionsOf(victimGuild.adminId)).toHaveLength(1);
    const servers = await victim.get('/console');
    expect(servers.status).toBe(200);
    expect(servers.text).toContain(`/console/servers/${victimGuild.id}/overview`);
    expect(servers.text).not.toContain(`/console/servers/${attacker.id}/overview`);

    const rightful = await first.get(callback.pathname + callback.search);
    expect(rightful.status).toBe(303);
    expect((await first.get('/console')).text).toContain(`/console/servers/${attacker.id}/overview`);
    expect(await sessionsOf(attacker.adminId)).toHaveLength(1);
  });
});

describe('the Discord access token after sign-in', () => {
  /** Signs in through the whole flow; returns the access token Discord issued (read from the fake's request log). */
  async function signInAndToken(userId: string) {
    const client = consoleClient(bed.app.baseUrl);
    const { callback } = await authorize(client, userId);
    const done = await client.get(callback.pathname + callback.search);
    const reads = bed.oauth.requests.filter((r) => r.path.startsWith('/api/v10/users/@me'));
    const token = /^Bearer (.+)$/.exec(String(reads.at(-1)!.headers.authorization))![1]!;
    return { client, done, token };
  }

  it('is revoked right after its two reads (client authenticated), and Discord refuses it from then on', async () => {
    const guild = await bed.guild();
    const { done, token } = await signInAndToken(guild.adminId);
    expect(done.status).toBe(303);
    const forToken = bed.oauth.requests.filter((r) => r.headers.authorization === `Bearer ${token}` || r.form?.get('token') === token);
    expect(forToken.map((r) => [r.path, r.status])).toEqual([
      ['/api/v10/users/@me', 200],
      ['/api/v10/users/@me/guilds', 200],
      ['/api/v10/oauth2/token/revoke', 200],
    ]);
    const revocation = forToken[2]!;
    expect(revocation.headers.authorization).toBe(`Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`);
    expect(revocation.form!.get('token_type_hint')).toBe('access_token');
    expect(bed.oauth.revoked).toContain(token);
    const after = await fetch(`${bed.fake.apiUrl}/v10/users/@me`, { headers: { Authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
    expect(JSON.stringify(bed.logs.lines)).not.toContain(token);
  });

  it('a revocation Discord refuses does not fail the sign-in: the session starts and a warning names the status, not the token', async () => {
    const guild = await bed.guild();
    bed.oauth.failRevocations(503);
    try {
      const { client, done, token } = await signInAndToken(guild.adminId);
      expect(done.status).toBe(303);
      expect((await client.get('/console')).text).toContain(`/console/servers/${guild.id}/overview`);
      expect(bed.oauth.revoked).not.toContain(token);
      const [warning] = bed.logs.matching('did not revoke the access token');
      expect(warning).toMatchObject({ level: LEVEL.warn, status: 503 });
      expect(JSON.stringify(bed.logs.lines)).not.toContain(token);
    } finally {
      bed.oauth.failRevocations(undefined);
    }
  });
});

describe('Discord sign-ins in the log and the audit log', () => {
  it('audits console.signIn in the servers the user manages with the bot, logs the sign-in, and logs a refused callback without its code or state', async () => {
    const guild = await bed.guild();
    const noBot = bed.guildWithoutBot(guild.adminId);
    const client = consoleClient(bed.app.baseUrl);
    const { callback } = await authorize(client, guild.adminId);
    const stranger = await consoleClient(bed.app.baseUrl).get(callback.pathname + callback.search);
    expect(stranger.status).toBe(400);
    expect((await client.get(callback.pathname + callback.search)).status).toBe(303);

    const audit = await bed.app.deps.db.selectFrom('audit_log').selectAll().where('action', '=', 'console.signIn').where('actor_id', '=', guild.adminId).execute();
    expect(audit.map((r) => [r.guild_id, r.actor_type, r.data])).toEqual([[guild.id, 'console_user', { address: '127.0.0.1', method: 'discord' }]]);
    expect(audit.some((r) => r.guild_id === noBot)).toBe(false);
    expect(bed.logs.matching('console sign-in').filter((l) => l.userId === guild.adminId)).toEqual([
      expect.objectContaining({ level: LEVEL.info, clientAddress: '127.0.0.1', method: 'discord', servers: [guild.id] }),
    ]);
    const refused = bed.logs.matching('console request refused').filter((l) => l.reason === 'Signing in with Discord failed: the sign-in was not started in this browser. Try again.');
    expect(refused.at(-1)).toMatchObject({ level: LEVEL.warn, code: 'SIGN_IN_FAILED', clientAddress: '127.0.0.1', path: '/console/oauth/callback' });
    const logged = JSON.stringify(bed.logs.lines);
    expect(logged).not.toContain(callback.searchParams.get('code')!);
    expect(logged).not.toContain(callback.searchParams.get('state')!);
  });
});
