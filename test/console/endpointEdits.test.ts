import { describe, expect, it } from 'vitest';
import { insertEndpoint } from '../../db/webhooks/webhooks.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { consoleClient, errorCodeOf, managedGuild } from './consoleClient.js';

const NOW = new Date('2026-05-01T12:00:00.000Z');
const { database, app } = useApiTestBed({ now: NOW, temporal: true, env: { WEBHOOK_ALLOW_INSECURE_LOCAL: 'true', CONSOLE_SIGN_IN_LIMIT: '1000' } });

const endpointRow = (id: number) => database.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const consoleAudit = (guildId: string) =>
  database.db.selectFrom('audit_log').select(['action', 'target_id', 'data']).where('guild_id', '=', guildId).where('actor_type', '=', 'console_user').where('action', '!=', 'console.signIn').orderBy('id').execute();

async function managerWithEndpoint(url = 'https://hooks.example.com/a') {
  const guild = await managedGuild(database.db);
  const client = consoleClient(app.baseUrl);
  await client.signIn(guild.managerId);
  const endpoint = await insertEndpoint(database.db, { guildId: guild.id, url, events: ['members.joined'], secret: 'whsec_old', description: 'Staging' });
  await client.get(`/console/servers/${guild.id}/webhooks`);
  return { guild, client, endpoint, base: `/console/servers/${guild.id}/webhooks/${endpoint.id}` };
}

describe('editing an endpoint', () => {
  it('changes its URL, event types and description, keeping its id, secret, state and deliveries, audit-logged with before and after', async () => {
    const { guild, client, endpoint, base } = await managerWithEndpoint();
    await database.db.insertInto('events').values({ id: 'evt_kept', guild_id: guild.id, type: 'members.joined', data: '{}', created_at: NOW }).execute();
    await database.db.insertInto('webhook_deliveries').values({ endpoint_id: endpoint.id, event_id: 'evt_kept', body: '{}', status: 'failed', completed_at: NOW, retry_requested_at: null }).execute();
    const form = await client.get(`${base}/edit`);
    expect(form.text).toContain('value="https://hooks.example.com/a"');
    expect(form.text).toContain('>Staging</textarea>');
    const res = await client.post(`${base}/edit`, { url: 'https://hooks.example.com/b', events: ['members.left', 'bank.transaction'], description: ' Production ' });
    // The same form sent again (a double click, Back and resubmit) changes nothing more: one audit row below.
    expect((await client.post(`${base}/edit`, { url: 'https://hooks.example.com/c' })).headers.location).toBe(base);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(base);
    expect(await endpointRow(endpoint.id)).toMatchObject({
      url: 'https://hooks.example.com/b',
      events: ['members.left', 'bank.transaction'],
      description: 'Production',
      secret: 'whsec_old',
      enabled: true,
      removed_at: null,
    });
    expect(await database.db.selectFrom('webhook_deliveries').select('event_id').where('endpoint_id', '=', endpoint.id).execute()).toEqual([{ event_id: 'evt_kept' }]);
    expect(await consoleAudit(guild.id)).toEqual([
      {
        action: 'webhook.update',
        target_id: String(endpoint.id),
        data: {
          before: { url: 'https://hooks.example.com/a', events: ['members.joined'], description: 'Staging' },
          after: { url: 'https://hooks.example.com/b', events: ['members.left', 'bank.transaction'], description: 'Production' },
        },
      },
    ]);
    const page = await client.get(base);
    expect(page.text).toContain('data-endpoint-url="true">https://hooks.example.com/b');
    expect(page.text).toContain('<dd data-description="true">Production</dd>');
  });

  it('clears the description and takes every event when none is picked', async () => {
    const { client, endpoint, base } = await managerWithEndpoint();
    await client.get(`${base}/edit`);
    expect((await client.post(`${base}/edit`, { url: 'https://hooks.example.com/a', description: '  ' })).status).toBe(303);
    expect(await endpointRow(endpoint.id)).toMatchObject({ events: [], description: null });
  });

  it.each([
    ['a URL the outbound address guard refuses', { url: 'https://192.168.1.4/hook' }, 422, 'INVALID_URL'],
    ['a URL that is not https', { url: 'ftp://hooks.example.com/in' }, 422, 'INVALID_URL'],
    ['an unknown event type', { url: 'https://hooks.example.com/b', events: 'nothing.happened' }, 422, 'UNKNOWN_EVENT'],
    ['a description over 500 characters', { url: 'https://hooks.example.com/b', description: 'x'.repeat(501) }, 422, 'INVALID_DESCRIPTION'],
    ['no URL', { url: '' }, 400, 'INVALID_INPUT'],
  ])('refuses %s on the form, the field named and the input kept, and changes nothing', async (_, fields, status, code) => {
    const { guild, client, endpoint, base } = await managerWithEndpoint();
    const before = await endpointRow(endpoint.id);
    await client.get(`${base}/edit`);
    const res = await client.post(`${base}/edit`, fields);
    expect(res.status).toBe(status);
    expect(errorCodeOf(res)).toBe(code);
    const field = { INVALID_URL: 'endpoint-url', INVALID_INPUT: 'endpoint-url', UNKNOWN_EVENT: 'endpoint-events', INVALID_DESCRIPTION: 'endpoint-description' }[code]!;
    expect(res.text).toContain(`<a href="#${field}">`);
    if (fields.url) expect(res.text).toContain(`value="${fields.url}"`);
    expect(await endpointRow(endpoint.id)).toEqual(before);
    expect(await consoleAudit(guild.id)).toEqual([]);
  });

  it("refuses another server's endpoint (404 here, 403 through its own server) and a missing CSRF token (403), unchanged", async () => {
    const a = await managerWithEndpoint();
    const b = await managedGuild(database.db, 'B');
    const foreign = await insertEndpoint(database.db, { guildId: b.id, url: 'https://hooks.example.com/b', events: [], secret: 'whsec_b' });
    const fields = { url: 'https://evil.example.com/x' };
    const viaA = await a.client.post(`/console/servers/${a.guild.id}/webhooks/${foreign.id}/edit`, fields);
    expect([viaA.status, errorCodeOf(viaA)]).toEqual([404, 'ENDPOINT_NOT_FOUND']);
    const viaB = await a.client.post(`/console/servers/${b.id}/webhooks/${foreign.id}/edit`, fields);
    expect([viaB.status, errorCodeOf(viaB)]).toEqual([403, 'NOT_A_SERVER_MANAGER']);
    await a.client.get(`${a.base}/edit`);
    const noToken = await a.client.post(`${a.base}/edit`, fields, { csrf: null });
    expect([noToken.status, errorCodeOf(noToken)]).toEqual([403, 'CSRF_TOKEN_INVALID']);
    const noFormToken = await a.client.post(`${a.base}/edit`, fields, { form: null });
    expect([noFormToken.status, errorCodeOf(noFormToken)]).toEqual([400, 'FORM_TOKEN_INVALID']);
    expect((await endpointRow(foreign.id)).url).toBe('https://hooks.example.com/b');
    expect((await endpointRow(a.endpoint.id)).url).toBe('https://hooks.example.com/a');
    expect(await consoleAudit(a.guild.id)).toEqual([]);
  });
});

describe('rotating the signing secret', () => {
  it('asks first, then keeps the old secret signing for 24 hours when asked, audit-logged with the overlap', async () => {
    const { guild, client, endpoint, base } = await managerWithEndpoint();
    const confirm = await client.get(`${base}/rotate-secret`);
    expect(confirm.text).toContain('receivers using the old secret fail from now on');
    expect(confirm.text).toContain('value="24h" checked');
    expect((await endpointRow(endpoint.id)).secret).toBe('whsec_old');

    const res = await client.post(`${base}/rotate-secret`, { overlap: '24h' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${base}/secret`);
    const shown = await client.get(`${base}/secret`);
    const row = await endpointRow(endpoint.id);
    const until = new Date(NOW.getTime() + 86_400_000);
    expect(row).toMatchObject({ previous_secret: 'whsec_old', previous_secret_expires_at: until });
    expect(row.secret).toMatch(/^whsec_/);
    expect(shown.text).toContain(`value="${row.secret}"`);
    expect(shown.text).toContain(`the old secret also signs until <time datetime="${until.toISOString()}"`);
    // A reload shows it no more, and the same form sent again (Back, resubmit) rotates nothing.
    expect((await client.get(`${base}/secret`)).text).not.toContain(row.secret);
    const again = await client.post(`${base}/rotate-secret`, { overlap: '24h' });
    expect([again.status, again.headers.location]).toEqual([303, `${base}/secret`]);
    expect((await endpointRow(endpoint.id)).secret).toBe(row.secret);
    expect(await consoleAudit(guild.id)).toEqual([
      { action: 'webhook.rotateSecret', target_id: String(endpoint.id), data: { overlap: '24h', previousSecretExpiresAt: until.toISOString() } },
    ]);
    const page = await client.get(base);
    expect(page.text).toContain(`data-secret-overlap="${until.toISOString()}"`);
    expect(page.text).not.toContain(row.secret);
    expect(page.text).not.toContain('whsec_old');
  });

  it('stops the old secret at once when asked, dropping a previous one still in its overlap', async () => {
    const { client, endpoint, base } = await managerWithEndpoint();
    await client.get(`${base}/rotate-secret`);
    await client.post(`${base}/rotate-secret`, { overlap: '24h' });
    await client.get(`${base}/rotate-secret`);
    expect((await client.post(`${base}/rotate-secret`, { overlap: 'now' })).status).toBe(303);
    expect(await endpointRow(endpoint.id)).toMatchObject({ previous_secret: null, previous_secret_expires_at: null });
    expect((await client.get(base)).text).toContain('data-secret-overlap="none"');
  });

  it.each([
    ['without an overlap choice', {}],
    ['with an overlap that is not offered', { overlap: '7d' }],
  ])('refuses a rotation %s (400 INVALID_INPUT), the secret unchanged', async (_, fields) => {
    const { guild, client, endpoint, base } = await managerWithEndpoint();
    await client.get(`${base}/rotate-secret`);
    const res = await client.post(`${base}/rotate-secret`, fields);
    expect([res.status, errorCodeOf(res)]).toEqual([400, 'INVALID_INPUT']);
    expect(await endpointRow(endpoint.id)).toMatchObject({ secret: 'whsec_old', previous_secret: null });
    expect(await consoleAudit(guild.id)).toEqual([]);
  });
});

describe('disabling an endpoint', () => {
  it('asks first, saying events raised while disabled are never delivered; the list names each row button by its URL', async () => {
    const { guild, client, endpoint, base } = await managerWithEndpoint('https://hooks.example.com/named');
    const list = (await client.get(`/console/servers/${guild.id}/webhooks`)).text;
    for (const label of ['Disable', 'Edit', 'Remove', 'Deliveries of', 'Send a test event to', 'Rotate the secret of']) {
      expect(list).toContain(`aria-label="${label} https://hooks.example.com/named"`);
    }
    const confirm = await client.get(`${base}/disable`);
    expect(confirm.text).toContain('Events raised while it is disabled are never delivered');
    expect((await endpointRow(endpoint.id)).enabled).toBe(true);
    expect((await client.post(`${base}/disable`)).status).toBe(303);
    expect(await endpointRow(endpoint.id)).toMatchObject({ enabled: false, disabled_reason: 'manual' });
    expect((await client.get(`/console/servers/${guild.id}/webhooks`)).text).toContain('aria-label="Enable https://hooks.example.com/named"');
  });
});
