import { describe, expect, it } from 'vitest';
import { insertEndpoint } from '../../db/webhooks/webhooks.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { createTestKey } from '../harness/fixtures.js';
import { consoleClient, errorCodeOf, signedInManager } from './consoleClient.js';

const { database, app } = useApiTestBed({ env: { WEBHOOK_ALLOW_INSECURE_LOCAL: 'true', CONSOLE_SIGN_IN_LIMIT: '1000' } });

const keysOf = (guildId: string) => database.db.selectFrom('api_keys').select(['id', 'revoked_at']).where('guild_id', '=', guildId).orderBy('id').execute();
const endpointsOf = (guildId: string) => database.db.selectFrom('webhook_endpoints').select(['id', 'secret']).where('guild_id', '=', guildId).orderBy('id').execute();
const auditOf = (guildId: string) =>
  database.db.selectFrom('audit_log').select('action').where('guild_id', '=', guildId).where('actor_type', '=', 'console_user').where('action', '!=', 'console.signIn').orderBy('id').execute();
const flashes = () => database.db.selectFrom('console_flashes').selectAll().execute();

const signedIn = (plan: 'free' | 'pro' = 'pro') => signedInManager(database.db, app.baseUrl, { plan });

describe('post/redirect/get with one-time form tokens', () => {
  it('creates one key for a form sent twice (reload, Back and resubmit): the second POST goes to the first one’s result', async () => {
    const { guild, client } = await signedIn();
    const keysPage = `/console/servers/${guild.id}/keys`;
    await client.get(keysPage);
    const first = await client.post(keysPage, { name: 'Once', scopes: 'guild:read' });
    expect(first.status).toBe(303);
    const shown = await client.get(first.headers.location!);
    const secret = /id="new-key" value="([^"]+)"/.exec(shown.text)?.[1];
    expect(secret).toMatch(/^svc_/);
    const second = await client.post(keysPage, { name: 'Once', scopes: 'guild:read' });
    expect(second.status).toBe(303);
    expect(second.headers.location).toBe(first.headers.location);
    const reshown = await client.get(second.headers.location!);
    expect(reshown.text).toContain('data-secret-gone');
    expect(reshown.text).not.toContain(secret!);
    expect(await keysOf(guild.id)).toHaveLength(1);
    expect((await auditOf(guild.id)).map((a) => a.action)).toEqual(['api_key.create']);
  });

  it('creates one key for a double click: two POSTs of one form at once both go to the one result, whose secret shows once', async () => {
    const { guild, client } = await signedIn();
    const keysPage = `/console/servers/${guild.id}/keys`;
    await client.get(keysPage);
    const [a, b] = await Promise.all([client.post(keysPage, { name: 'Twice', scopes: 'guild:read' }), client.post(keysPage, { name: 'Twice', scopes: 'guild:read' })]);
    expect([a.status, b.status]).toEqual([303, 303]);
    expect(a.headers.location).toBe(b.headers.location);
    expect(await keysOf(guild.id)).toHaveLength(1);
    const pages = [await client.get(a.headers.location!), await client.get(b.headers.location!)];
    expect(pages.map((p) => p.text.includes('id="new-key"'))).toEqual([true, false]);
  });

  it('keeps the new key only sealed in the flash table until its page shows it, then nowhere', async () => {
    const { guild, client } = await signedIn();
    await client.get(`/console/servers/${guild.id}/keys`);
    const res = await client.post(`/console/servers/${guild.id}/keys`, { name: 'Sealed', scopes: 'guild:read' });
    const kept = await flashes();
    expect(kept.map((f) => f.path)).toContain(res.headers.location);
    const secret = /id="new-key" value="([^"]+)"/.exec((await client.get(res.headers.location!)).text)![1]!;
    for (const f of kept) {
      expect(Buffer.concat([f.iv, f.sealed, Buffer.from(f.path)]).includes(Buffer.from(secret))).toBe(false);
      expect(f.sealed.toString('latin1')).not.toContain(secret.slice(4, 20));
    }
    expect((await flashes()).map((f) => f.path)).not.toContain(res.headers.location);
    const row = await database.db.selectFrom('api_keys').selectAll().where('guild_id', '=', guild.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret);
  });

  it('adds one endpoint for a form sent twice, and shows its signing secret once', async () => {
    const { guild, client } = await signedIn();
    const page = `/console/servers/${guild.id}/webhooks`;
    await client.get(page);
    const first = await client.post(page, { url: 'https://hooks.example.com/once' });
    const second = await client.post(page, { url: 'https://hooks.example.com/once' });
    expect([first.status, second.status]).toEqual([303, 303]);
    expect(second.headers.location).toBe(first.headers.location);
    const [endpoint, ...others] = await endpointsOf(guild.id);
    expect(others).toEqual([]);
    expect((await client.get(first.headers.location!)).text).toContain(`value="${endpoint!.secret}"`);
    const reload = await client.get(first.headers.location!);
    expect(reload.text).toContain('data-secret-gone');
    expect(reload.text).not.toContain(endpoint!.secret);
    expect((await auditOf(guild.id)).map((a) => a.action)).toEqual(['webhook.add']);
  });

  it('rotates a secret once for a form sent twice; the result page opened again shows no secret and rotates nothing', async () => {
    const { guild, client } = await signedIn();
    const endpoint = await insertEndpoint(database.db, { guildId: guild.id, url: 'https://hooks.example.com/r', events: [], secret: 'whsec_old' });
    const rotate = `/console/servers/${guild.id}/webhooks/${endpoint.id}/rotate-secret`;
    await client.get(rotate);
    const first = await client.post(rotate, { overlap: 'now' });
    expect(first.status).toBe(303);
    const { secret } = (await endpointsOf(guild.id))[0]!;
    expect(secret).not.toBe('whsec_old');
    expect((await client.get(first.headers.location!)).text).toContain(`value="${secret}"`);
    const second = await client.post(rotate, { overlap: 'now' });
    expect(second.headers.location).toBe(first.headers.location);
    expect((await client.get(first.headers.location!)).text).toContain('data-secret-gone');
    expect(await endpointsOf(guild.id)).toEqual([{ id: endpoint.id, secret }]);
    expect((await auditOf(guild.id)).map((a) => a.action)).toEqual(['webhook.rotateSecret']);
  });

  it.each([
    ['without a form token', () => null],
    ['with a form token of another form', (c: ReturnType<typeof consoleClient>, g: string) => c.state.forms.get(`/console/servers/${g}/webhooks`)!],
  ])('refuses a form sent %s 400 FORM_TOKEN_INVALID on a page saying so, and creates nothing', async (_, tokenOf) => {
    const { guild, client } = await signedIn();
    await client.get(`/console/servers/${guild.id}/keys`);
    await client.get(`/console/servers/${guild.id}/webhooks`);
    const res = await client.post(`/console/servers/${guild.id}/keys`, { name: 'x', scopes: 'guild:read' }, { form: tokenOf(client, guild.id) });
    expect(res.status).toBe(400);
    expect(errorCodeOf(res)).toBe('FORM_TOKEN_INVALID');
    expect(res.text).toContain('<title>This form is out of date');
    expect(await keysOf(guild.id)).toEqual([]);
    expect(await auditOf(guild.id)).toEqual([]);
  });

  it("refuses another session's form token 400, even for the same form, and creates nothing", async () => {
    const { guild, client } = await signedIn();
    const other = consoleClient(app.baseUrl);
    await other.signIn(guild.managerId);
    await other.get(`/console/servers/${guild.id}/keys`);
    await client.get(`/console/servers/${guild.id}/keys`);
    const res = await client.post(`/console/servers/${guild.id}/keys`, { name: 'x', scopes: 'guild:read' }, { form: other.state.forms.get(`/console/servers/${guild.id}/keys`)! });
    expect(res.status).toBe(400);
    expect(errorCodeOf(res)).toBe('FORM_TOKEN_INVALID');
    expect(await keysOf(guild.id)).toEqual([]);
  });
});

describe('validation errors on the form', () => {
  it('keeps the input, names the field (aria-invalid, aria-describedby) and sums the problems up at the top', async () => {
    const { guild, client } = await signedIn();
    await client.get(`/console/servers/${guild.id}/keys`);
    const res = await client.post(`/console/servers/${guild.id}/keys`, { name: '', scopes: ['guild:read', 'bank:write'], expires: '365' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('<title>Error: API keys');
    expect(res.text).toMatch(/<div class="error-summary" role="alert" tabindex="-1"[^>]*data-error="INVALID_INPUT"/);
    expect(res.text).toContain('<a href="#key-name">Give the key a name of 1 to 100 characters.</a>');
    expect(res.text).toMatch(/<input id="key-name"[^>]*aria-invalid="true" aria-describedby="key-name-error"/);
    expect(res.text).toMatch(/<p id="key-name-error" class="field-error">/);
    expect(res.text).toMatch(/value="guild:read" checked/);
    expect(res.text).toMatch(/value="bank:write" checked/);
    expect(res.text).not.toMatch(/value="bank:read" checked/);
    expect(res.text).toMatch(/value="365" checked/);
    expect(res.text).not.toContain('Not allowed');
    expect(res.text).toContain('novalidate');
    // Sent again, corrected, from the page that came back: created.
    const fixed = await client.post(`/console/servers/${guild.id}/keys`, { name: 'Fixed', scopes: 'guild:read' });
    expect(fixed.status).toBe(303);
    expect(await keysOf(guild.id)).toHaveLength(1);
  });

  it('refuses a key past the plan limit 409 KEY_LIMIT_REACHED on the form, the input kept, nothing created', async () => {
    const { guild, client } = await signedIn('free');
    await createTestKey(database.db, guild);
    await createTestKey(database.db, guild);
    await client.get(`/console/servers/${guild.id}/keys`);
    const res = await client.post(`/console/servers/${guild.id}/keys`, { name: 'Third', scopes: 'guild:read' });
    expect(res.status).toBe(409);
    expect(errorCodeOf(res)).toBe('KEY_LIMIT_REACHED');
    expect(res.text).toContain('value="Third"');
    expect(res.text).toContain('as many active keys as its plan allows');
    expect(await keysOf(guild.id)).toHaveLength(2);
  });

  it('keeps the endpoint form’s URL and event types when an event type is unknown (422 UNKNOWN_EVENT)', async () => {
    const { guild, client } = await signedIn();
    await client.get(`/console/servers/${guild.id}/webhooks`);
    const res = await client.post(`/console/servers/${guild.id}/webhooks`, { url: 'https://hooks.example.com/kept', events: ['members.joined', 'nothing.happened'] });
    expect(res.status).toBe(422);
    expect(errorCodeOf(res)).toBe('UNKNOWN_EVENT');
    expect(res.text).toContain('value="https://hooks.example.com/kept"');
    expect(res.text).toMatch(/value="members.joined" checked/);
    expect(res.text).toMatch(/<fieldset aria-describedby="endpoint-events-error">/);
    expect(res.text).toMatch(/<a href="#endpoint-events">Unknown event type/);
    expect(await endpointsOf(guild.id)).toEqual([]);
  });

  it('refuses an endpoint past the plan limit 409 ENDPOINT_LIMIT_REACHED on the form, the input kept, nothing added', async () => {
    const { guild, client } = await signedIn('free');
    await insertEndpoint(database.db, { guildId: guild.id, url: 'https://hooks.example.com/one', events: [], secret: 'whsec_1' });
    await client.get(`/console/servers/${guild.id}/webhooks`);
    const res = await client.post(`/console/servers/${guild.id}/webhooks`, { url: 'https://hooks.example.com/two' });
    expect(res.status).toBe(409);
    expect(errorCodeOf(res)).toBe('ENDPOINT_LIMIT_REACHED');
    expect(res.text).toContain('value="https://hooks.example.com/two"');
    expect(await endpointsOf(guild.id)).toHaveLength(1);
  });
});
