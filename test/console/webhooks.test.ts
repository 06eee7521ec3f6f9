import { describe, expect, it } from 'vitest';
import { insertEndpoint } from '../../db/webhooks/webhooks.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { errorCodeOf, managedGuild, signedInManager } from './consoleClient.js';

const { database, app } = useApiTestBed({ temporal: true, env: { WEBHOOK_ALLOW_INSECURE_LOCAL: 'true', CONSOLE_SIGN_IN_LIMIT: '1000' } });

const endpointRow = (id: number) => database.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const endpointsOf = (guildId: string) => database.db.selectFrom('webhook_endpoints').selectAll().where('guild_id', '=', guildId).orderBy('id').execute();
// The console user's endpoint actions (their sign-ins are audited too, as console.signIn: not what these tests count).
const consoleAudit = (guildId: string) =>
  database.db
    .selectFrom('audit_log')
    .select(['actor_id', 'action', 'target_id'])
    .where('guild_id', '=', guildId)
    .where('actor_type', '=', 'console_user')
    .where('action', '!=', 'console.signIn')
    .orderBy('id')
    .execute();

const signedIn = () => signedInManager(database.db, app.baseUrl);

describe('the webhook endpoints page', () => {
  it('adds an endpoint with its event types and shows its secret once after the redirect, audit-logged', async () => {
    const { guild, client } = await signedIn();
    await client.get(`/console/servers/${guild.id}/webhooks`);
    const res = await client.post(`/console/servers/${guild.id}/webhooks`, { url: 'https://hooks.example.com/in', events: ['members.joined', 'webhook.test'] });
    expect(res.status).toBe(303);
    const [row] = await endpointsOf(guild.id);
    expect(row).toMatchObject({ url: 'https://hooks.example.com/in', events: ['members.joined', 'webhook.test'], enabled: true });
    expect(res.headers.location).toBe(`/console/servers/${guild.id}/webhooks/${row!.id}/secret`);
    const shown = await client.get(res.headers.location!);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain(`value="${row!.secret}"`);
    const again = await client.get(res.headers.location!);
    expect(again.text).toContain('data-secret-gone');
    expect(again.text).not.toContain(row!.secret);
    expect(await consoleAudit(guild.id)).toEqual([{ actor_id: guild.managerId, action: 'webhook.add', target_id: String(row!.id) }]);
    const list = await client.get(`/console/servers/${guild.id}/webhooks`);
    expect(list.text).toContain('https://hooks.example.com/in');
    expect(list.text).not.toContain(row!.secret);
  });

  it.each([
    ['a URL the outbound address guard refuses', { url: 'https://10.0.0.8/hook' }, 422, 'INVALID_URL'],
    ['a URL that is not https', { url: 'ftp://hooks.example.com/in' }, 422, 'INVALID_URL'],
    ['an unknown event type', { url: 'https://hooks.example.com/in', events: 'nothing.happened' }, 422, 'UNKNOWN_EVENT'],
    ['no URL', { url: ' ' }, 400, 'INVALID_INPUT'],
  ])('refuses %s on the form, the field named, and adds nothing', async (_, fields, status, code) => {
    const { guild, client } = await signedIn();
    await client.get(`/console/servers/${guild.id}/webhooks`);
    const res = await client.post(`/console/servers/${guild.id}/webhooks`, fields);
    expect(res.status).toBe(status);
    expect(errorCodeOf(res)).toBe(code);
    expect(res.text).toContain(code === 'UNKNOWN_EVENT' ? '<a href="#endpoint-events">' : '<a href="#endpoint-url">');
    expect(await endpointsOf(guild.id)).toEqual([]);
    expect(await consoleAudit(guild.id)).toEqual([]);
  });

  it('rotates the secret, disables and enables, sends webhook.test and removes after confirmation, each audit-logged', async () => {
    const { guild, client } = await signedIn();
    const endpoint = await insertEndpoint(database.db, { guildId: guild.id, url: 'https://hooks.example.com/a', events: [], secret: 'whsec_old' });
    const base = `/console/servers/${guild.id}/webhooks/${endpoint.id}`;

    expect((await client.get(`${base}/rotate-secret`)).text).toContain('receivers using the old secret fail from now on');
    const rotated = await client.post(`${base}/rotate-secret`, { overlap: 'now' });
    expect(rotated.status).toBe(303);
    expect(rotated.headers.location).toBe(`${base}/secret`);
    const secret = (await endpointRow(endpoint.id)).secret;
    expect(secret).not.toBe('whsec_old');
    expect((await client.get(`${base}/secret`)).text).toContain(`value="${secret}"`);

    expect((await client.get(`${base}/disable`)).text).toContain('Events raised while it is disabled are never delivered');
    expect((await client.post(`${base}/disable`)).status).toBe(303);
    expect(await endpointRow(endpoint.id)).toMatchObject({ enabled: false, disabled_reason: 'manual' });
    expect((await client.get(`/console/servers/${guild.id}/webhooks`)).text).toContain('data-state="disabled-manual"');
    expect((await client.post(`${base}/enable`)).status).toBe(303);
    expect(await endpointRow(endpoint.id)).toMatchObject({ enabled: true, disabled_reason: null });

    await client.get(`${base}/test`);
    const test = await client.post(`${base}/test`, { type: 'webhook.test' });
    expect(test.status).toBe(303);
    const event = await database.db.selectFrom('events').selectAll().where('guild_id', '=', guild.id).where('type', '=', 'webhook.test').executeTakeFirstOrThrow();
    expect(test.headers.location).toBe(`/console/servers/${guild.id}/deliveries?event_id=${event.id}`);
    // Its one delivery is written with it, so the page it lands on lists it at once (no worker here: the browser scenario runs one).
    expect(event.data).toMatchObject({ endpointId: endpoint.id });
    expect((await client.get(test.headers.location!)).text).toContain('data-delivery-id=');
    expect(event.fanout_started_at).not.toBeNull();

    expect((await client.get(`${base}/remove`)).text).toContain('Remove the endpoint');
    expect((await client.post(`${base}/remove`)).status).toBe(303);
    expect((await endpointRow(endpoint.id)).removed_at).not.toBeNull();

    expect((await consoleAudit(guild.id)).map((a) => a.action)).toEqual([
      'webhook.rotateSecret',
      'webhook.disable',
      'webhook.enable',
      'webhook.test',
      'webhook.remove',
    ]);
  });

  it("refuses another server's endpoint through this server's pages (404) and that server's pages (403), unchanged", async () => {
    const a = await signedIn();
    const b = await managedGuild(database.db, 'B');
    const bEndpoint = await insertEndpoint(database.db, { guildId: b.id, url: 'https://hooks.example.com/b', events: [], secret: 'whsec_b' });
    for (const action of ['disable', 'remove', 'rotate-secret', 'test']) {
      const viaA = await a.client.post(`/console/servers/${a.guild.id}/webhooks/${bEndpoint.id}/${action}`);
      expect(viaA.status).toBe(404);
      expect(errorCodeOf(viaA)).toBe('ENDPOINT_NOT_FOUND');
      const viaB = await a.client.post(`/console/servers/${b.id}/webhooks/${bEndpoint.id}/${action}`);
      expect(viaB.status).toBe(403);
      expect(errorCodeOf(viaB)).toBe('NOT_A_SERVER_MANAGER');
    }
    expect(await endpointRow(bEndpoint.id)).toMatchObject({ enabled: true, secret: 'whsec_b', removed_at: null });
    expect((await a.client.get(`/console/servers/${a.guild.id}/webhooks/${bEndpoint.id}/deliveries`)).status).toBe(404);
    expect(await database.db.selectFrom('events').select('id').where('guild_id', '=', b.id).execute()).toEqual([]);
    expect(await consoleAudit(b.id)).toEqual([]);
  });

  it('shows an endpoint disabled for failing with the time its failures began, and one still failing while enabled', async () => {
    const { guild, client } = await signedIn();
    const since = new Date('2026-02-03T04:05:06.000Z');
    const off = await insertEndpoint(database.db, { guildId: guild.id, url: 'https://hooks.example.com/off', events: [], secret: 'whsec_1' });
    const flaky = await insertEndpoint(database.db, { guildId: guild.id, url: 'https://hooks.example.com/flaky', events: [], secret: 'whsec_2' });
    await database.db.updateTable('webhook_endpoints').set({ enabled: false, disabled_reason: 'failing', failing_since: since }).where('id', '=', off.id).execute();
    await database.db.updateTable('webhook_endpoints').set({ failing_since: since }).where('id', '=', flaky.id).execute();
    const page = (await client.get(`/console/servers/${guild.id}/webhooks`)).text;
    const stateOf = (id: number) => new RegExp(`data-endpoint-id="${id}".*?(<span data-state=.*?</span>)`, 's').exec(page)?.[1];
    expect(stateOf(off.id)).toContain('data-state="disabled-failing"');
    expect(stateOf(off.id)).toContain(`datetime="${since.toISOString()}"`);
    expect(stateOf(flaky.id)).toContain('data-state="enabled"');
    expect(stateOf(flaky.id)).toContain('failing since');
  });

  it('refuses a webhook action without the CSRF token 403, the endpoint unchanged', async () => {
    const { guild, client } = await signedIn();
    const endpoint = await insertEndpoint(database.db, { guildId: guild.id, url: 'https://hooks.example.com/c', events: [], secret: 'whsec_c' });
    const res = await client.post(`/console/servers/${guild.id}/webhooks/${endpoint.id}/disable`, {}, { csrf: null });
    expect(res.status).toBe(403);
    expect(errorCodeOf(res)).toBe('CSRF_TOKEN_INVALID');
    expect((await endpointRow(endpoint.id)).enabled).toBe(true);
  });
});
