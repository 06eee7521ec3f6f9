import { describe, expect, it } from 'vitest';
import { hashToken } from '../../src/console/tokens.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { createHttpClient } from '../harness/httpClient.js';
import { consoleClient, errorCodeOf, managedGuild } from './consoleClient.js';

const NOW = new Date('2026-03-02T10:00:00.000Z');
// Room for this file's other sign-ins in NOW's minute; the limit test counts in a minute of its own.
const LIMIT = 30;
const bed = useApiTestBed({ now: NOW, env: { CONSOLE_SIGN_IN_LIMIT: String(LIMIT) } });
const { database, app } = bed;

const sessionRows = () => database.db.selectFrom('console_sessions').selectAll().execute();
const tokenOf = (cookie: string) => cookie.split('=')[1]!;

describe('console sign-in (local platform)', () => {
  it('sends a visitor without a session to the sign-in page, which offers the local members', async () => {
    const guild = await managedGuild(database.db);
    const client = consoleClient(app.baseUrl);
    const home = await client.get('/console');
    expect(home.status).toBe(302);
    expect(home.headers.location).toBe('/console/sign-in');
    const page = await client.get('/console/sign-in');
    expect(page.status).toBe(200);
    expect(page.text).toContain(`value="${guild.managerId}"`);
    expect(page.text).not.toContain(`value="${guild.botUserId}"`);
  });

  it('sets an HttpOnly, SameSite=Lax session cookie and stores only its hash; a second sign-in rotates it', async () => {
    const guild = await managedGuild(database.db);
    const client = consoleClient(app.baseUrl);
    const first = await client.signIn(guild.managerId);
    const line = (first.headers['set-cookie'] ?? []).find((l) => l.startsWith('console_session='))!;
    expect(line).toMatch(/; path=\/; samesite=lax; httponly$/);
    expect(line).not.toMatch(/secure/i);
    const firstToken = tokenOf(client.state.cookie);
    const stored = (await sessionRows()).filter((r) => r.user_id === guild.managerId);
    expect(stored.map((r) => r.token_hash.equals(hashToken(firstToken)))).toEqual([true]);
    expect(JSON.stringify(stored)).not.toContain(firstToken);
    expect(stored[0]).toMatchObject({ created_at: NOW, last_seen_at: NOW, expires_at: new Date(NOW.getTime() + 12 * 3_600_000) });

    await client.signIn(guild.managerId);
    const secondToken = tokenOf(client.state.cookie);
    expect(secondToken).not.toBe(firstToken);
    const after = (await sessionRows()).filter((r) => r.user_id === guild.managerId);
    expect(after.map((r) => r.token_hash.equals(hashToken(secondToken)))).toEqual([true]);
  });

  it('refuses an unknown user id with 400 SIGN_IN_FAILED and starts no session', async () => {
    const before = (await sessionRows()).length;
    const client = consoleClient(app.baseUrl);
    const res = await client.post('/console/sign-in/local', { userId: '1999999999999999999' }, { csrf: null });
    expect(res.status).toBe(400);
    expect(errorCodeOf(res)).toBe('SIGN_IN_FAILED');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect((await sessionRows()).length).toBe(before);
  });

  it('limits sign-in attempts per address: one past the limit in a minute is refused 429 RATE_LIMITED', async () => {
    bed.clock.set(new Date('2026-03-02T11:00:00.000Z'));
    const client = consoleClient(app.baseUrl);
    for (let i = 0; i < LIMIT; i++) {
      expect((await client.post('/console/sign-in/local', { userId: '1999999999999999999' }, { csrf: null })).status).toBe(400);
    }
    const guild = await managedGuild(database.db);
    const before = (await sessionRows()).length;
    const refused = await client.post('/console/sign-in/local', { userId: guild.managerId }, { csrf: null });
    expect(refused.status).toBe(429);
    expect(errorCodeOf(refused)).toBe('RATE_LIMITED');
    expect(refused.headers['retry-after']).toBe('60');
    expect((await sessionRows()).length).toBe(before);
    bed.clock.set(new Date('2026-03-02T11:01:00.000Z'));
    expect((await client.post('/console/sign-in/local', { userId: guild.managerId }, { csrf: null })).status).toBe(303);
    bed.clock.set(NOW);
  });

  it('ends a session idle for 30 minutes, and any session 12 hours after sign-in', async () => {
    const guild = await managedGuild(database.db);
    const client = consoleClient(app.baseUrl);
    bed.clock.set(NOW);
    await client.signIn(guild.managerId);
    bed.clock.set(new Date(NOW.getTime() + 29 * 60_000));
    expect((await client.get('/console')).status).toBe(200);
    bed.clock.set(new Date(NOW.getTime() + (29 + 30) * 60_000));
    const idle = await client.get('/console');
    expect(idle.status).toBe(302);
    expect(idle.headers.location).toBe('/console/sign-in');
    expect((await sessionRows()).some((r) => r.user_id === guild.managerId)).toBe(false);

    bed.clock.set(NOW);
    await client.signIn(guild.managerId);
    for (let minutes = 25; minutes < 12 * 60; minutes += 25) {
      bed.clock.set(new Date(NOW.getTime() + minutes * 60_000));
      expect((await client.get('/console')).status).toBe(200);
    }
    bed.clock.set(new Date(NOW.getTime() + 12 * 3_600_000));
    expect((await client.get('/console')).status).toBe(302);
    bed.clock.set(NOW);
  });

  it('signs out (CSRF-checked): the session row is gone and the cookie no longer works', async () => {
    const guild = await managedGuild(database.db);
    const client = consoleClient(app.baseUrl);
    await client.signIn(guild.managerId);
    const cookie = client.state.cookie;
    const forged = await client.post('/console/sign-out', {}, { csrf: null });
    expect(forged.status).toBe(403);
    expect(errorCodeOf(forged)).toBe('CSRF_TOKEN_INVALID');
    expect((await sessionRows()).some((r) => r.token_hash.equals(hashToken(tokenOf(cookie))))).toBe(true);
    const res = await client.post('/console/sign-out');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/console/sign-in');
    expect((await sessionRows()).some((r) => r.token_hash.equals(hashToken(tokenOf(cookie))))).toBe(false);
    client.state.cookie = cookie;
    expect((await client.get('/console')).status).toBe(302);
  });
});

describe('console responses', () => {
  it('carry a CSP without inline script, frame-ancestors none, and no-store', async () => {
    const res = await consoleClient(app.baseUrl).get('/console/sign-in');
    const csp = res.headers['content-security-policy']!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('serve htmx 2 and the console script from the api itself', async () => {
    const htmx = await consoleClient(app.baseUrl).get('/console/assets/htmx.min.js');
    expect(htmx.status).toBe(200);
    expect(htmx.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(htmx.text).toContain('version:"2.0.11"');
  });

  it('answer an unknown console page with an HTML 404, and a POST without a session with 401', async () => {
    const client = consoleClient(app.baseUrl);
    const missing = await client.get('/console/nowhere');
    expect(missing.status).toBe(404);
    expect(errorCodeOf(missing)).toBe('PAGE_NOT_FOUND');
    const anonymous = await client.post('/console/servers/1100000000000000001/keys', { name: 'x', scopes: 'bank:read' }, { csrf: null });
    expect(anonymous.status).toBe(401);
    expect(errorCodeOf(anonymous)).toBe('SIGN_IN_REQUIRED');
  });

  it('refuses a signed-in POST whose body is not a form and has no X-CSRF-Token header 403, and takes the header', async () => {
    const guild = await managedGuild(database.db);
    const client = consoleClient(app.baseUrl);
    await client.signIn(guild.managerId);
    const send = createHttpClient(app.baseUrl);
    const json = await send('POST', `/console/servers/${guild.id}/keys`, { headers: { Cookie: client.state.cookie }, body: { name: 'x', scopes: ['guild:read'] } });
    expect(json.status).toBe(403);
    expect(errorCodeOf(json)).toBe('CSRF_TOKEN_INVALID');
    await client.get(`/console/servers/${guild.id}/keys`);
    const viaHeader = await client.post(`/console/servers/${guild.id}/keys`, { name: 'htmx', scopes: 'guild:read' }, { csrf: null, headers: { 'X-CSRF-Token': client.state.csrf } });
    expect(viaHeader.status).toBe(303);
    const keys = await database.db.selectFrom('api_keys').select('name').where('guild_id', '=', guild.id).execute();
    expect(keys).toEqual([{ name: 'htmx' }]);
  });

  it('refuses a POST another origin sent, before anything else', async () => {
    const guild = await managedGuild(database.db);
    const client = consoleClient(app.baseUrl);
    const res = await client.post('/console/sign-in/local', { userId: guild.managerId }, { csrf: null, headers: { Origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect(errorCodeOf(res)).toBe('CROSS_ORIGIN_REQUEST');
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});
