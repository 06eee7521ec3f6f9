import { describe, expect, it } from 'vitest';
import { insertEvent } from '../../db/shared/events.js';
import { insertEndpoint, recordAttempt } from '../../db/webhooks/webhooks.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { addTestMember } from '../harness/fixtures.js';
import { consoleClient, errorCodeOf, managedGuild } from './consoleClient.js';

const NOW = new Date('2026-04-01T12:00:00.000Z');
/** One of the service's operators (CONSOLE_OPERATOR_USER_IDS), who also manages the test's servers. */
const OPERATOR_ID = '1999000000000000001';
const { database, app } = useApiTestBed({ now: NOW, temporal: true, env: { CONSOLE_SIGN_IN_LIMIT: '1000', CONSOLE_OPERATOR_USER_IDS: `1999000000000000009,${OPERATOR_ID}` } });

async function endpointWithDeliveries(types: string[]) {
  const guild = await managedGuild(database.db);
  const endpoint = await insertEndpoint(database.db, { guildId: guild.id, url: 'https://hooks.example.com/d', events: [], secret: 'whsec_d' });
  const events = [];
  for (const type of types) events.push(await insertEvent(database.db, { type, guildId: guild.id, createdAt: NOW, data: {} }));
  const deliveries = await database.db.selectFrom('webhook_deliveries').select(['id', 'event_id']).where('endpoint_id', '=', endpoint.id).orderBy('id').execute();
  const client = consoleClient(app.baseUrl);
  await client.signIn(guild.managerId);
  return { guild, endpoint, events, deliveries, client };
}

const deliveryRow = (id: number) => database.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const setStatus = (id: number, status: 'pending' | 'succeeded' | 'failed' | 'cancelled') =>
  database.db.updateTable('webhook_deliveries').set({ status }).where('id', '=', id).execute();
const auditOf = (guildId: string) =>
  database.db.selectFrom('audit_log').select(['action', 'data']).where('guild_id', '=', guildId).where('actor_type', '=', 'console_user').where('action', '!=', 'console.signIn').orderBy('id').execute();

const shownIds = (html: string) => [...html.matchAll(/data-delivery-id="(\d+)"/g)].map((m) => Number(m[1]));

describe('the deliveries pages', () => {
  it('filter by status and event type, and page 25 at a time, newest first', async () => {
    const types = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? 'members.left' : 'members.joined'));
    const { guild, endpoint, deliveries, client } = await endpointWithDeliveries(types);
    await database.db.updateTable('webhook_deliveries').set({ status: 'failed' }).where('id', '=', deliveries[1]!.id).execute();
    const base = `/console/servers/${guild.id}/webhooks/${endpoint.id}/deliveries`;
    const first = await client.get(base);
    const all = deliveries.map((d) => d.id).reverse();
    expect(shownIds(first.text)).toEqual(all.slice(0, 25));
    const older = /href="([^"]+)" rel="next"/.exec(first.text)![1]!.replaceAll('&amp;', '&');
    expect(shownIds((await client.get(older)).text)).toEqual(all.slice(25));
    expect(shownIds((await client.get(`${base}?status=failed`)).text)).toEqual([deliveries[1]!.id]);
    const left = deliveries.filter((_, i) => i % 3 === 0).map((d) => d.id).reverse();
    expect(shownIds((await client.get(`${base}?event=members.left`)).text)).toEqual(left);
    const bad = await client.get(`${base}?status=lost`);
    expect(bad.status).toBe(400);
    expect(errorCodeOf(bad)).toBe('INVALID_INPUT');
  });

  it('show a delivery with its body, every attempt and the next scheduled attempt, and no link into Temporal UI for a manager', async () => {
    const { guild, deliveries, client } = await endpointWithDeliveries(['members.joined']);
    const id = deliveries[0]!.id;
    await recordAttempt(database.db, { deliveryId: id, attempt: 1, attemptedAt: NOW, durationMs: 31, statusCode: 503, error: null, responseExcerpt: 'busy <b>now</b>' });
    const page = await client.get(`/console/servers/${guild.id}/deliveries/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('busy &lt;b>now&lt;/b>');
    expect(page.text).toContain(`datetime="${new Date(NOW.getTime() + 60_000).toISOString()}"`);
    expect(page.text).toContain(deliveries[0]!.event_id);
    expect(page.text).not.toContain('localhost:8233');
    expect(page.text).not.toContain('data-temporal-runs');
  });

  it('link an operator (CONSOLE_OPERATOR_USER_IDS) to the delivery’s runs in Temporal UI', async () => {
    const { guild, deliveries } = await endpointWithDeliveries(['members.joined']);
    await recordAttempt(database.db, { deliveryId: deliveries[0]!.id, attempt: 1, attemptedAt: NOW, durationMs: 31, statusCode: 503, error: null, responseExcerpt: null });
    await addTestMember(database.db, guild, { userId: OPERATOR_ID, username: 'operator', roleIds: [guild.managerRoleId] });
    const operator = consoleClient(app.baseUrl);
    await operator.signIn(OPERATOR_ID);
    const page = await operator.get(`/console/servers/${guild.id}/deliveries/${deliveries[0]!.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-temporal-runs');
    expect(page.text).toContain(`http://localhost:8233/namespaces/default/workflows/${encodeURIComponent(`webhook/`)}`);
  });

  it('retry a failed delivery of this server once, audit-logged; refuse one already pending (409) and another server’s (404), unchanged', async () => {
    const a = await endpointWithDeliveries(['members.joined']);
    const b = await endpointWithDeliveries(['members.joined']);
    const id = a.deliveries[0]!.id;
    const page = `/console/servers/${a.guild.id}/deliveries/${id}`;
    await setStatus(id, 'failed');
    expect((await a.client.get(page)).text).toContain('Retry this delivery');
    // Someone else retried it meanwhile: the form still on this page is refused.
    await setStatus(id, 'pending');
    const pending = await a.client.post(`${page}/retry`);
    expect([pending.status, errorCodeOf(pending)]).toEqual([409, 'DELIVERY_NOT_RETRYABLE']);
    expect(await auditOf(a.guild.id)).toEqual([]);
    await setStatus(id, 'failed');
    const retried = await a.client.post(`${page}/retry`);
    expect([retried.status, retried.headers.location]).toEqual([303, page]);
    expect(await deliveryRow(id)).toMatchObject({ status: 'pending', completed_at: null });
    // The same form again (a reload of the POST, a double click) starts nothing more.
    expect((await a.client.post(`${page}/retry`)).status).toBe(303);
    expect(await auditOf(a.guild.id)).toEqual([{ action: 'webhook.retryDelivery', data: { endpointId: a.endpoint.id, eventId: a.deliveries[0]!.event_id, previousStatus: 'failed' } }]);

    await setStatus(b.deliveries[0]!.id, 'failed');
    const foreign = await a.client.post(`/console/servers/${a.guild.id}/deliveries/${b.deliveries[0]!.id}/retry`);
    expect([foreign.status, errorCodeOf(foreign)]).toEqual([404, 'PAGE_NOT_FOUND']);
    expect((await a.client.get(`/console/servers/${a.guild.id}/deliveries/${b.deliveries[0]!.id}`)).status).toBe(404);
    expect(await deliveryRow(b.deliveries[0]!.id)).toMatchObject({ status: 'failed', retry_requested_at: null });
  });

  it('resend a delivered delivery: another round under the same event id, audit-logged with its earlier status', async () => {
    const { guild, endpoint, deliveries, client } = await endpointWithDeliveries(['members.joined']);
    const id = deliveries[0]!.id;
    await setStatus(id, 'succeeded');
    const page = `/console/servers/${guild.id}/deliveries/${id}`;
    expect((await client.get(page)).text).toContain('Resend this delivery');
    expect((await client.post(`${page}/retry`)).status).toBe(303);
    expect(await deliveryRow(id)).toMatchObject({ status: 'pending', completed_at: null });
    expect(await auditOf(guild.id)).toEqual([{ action: 'webhook.retryDelivery', data: { endpointId: endpoint.id, eventId: deliveries[0]!.event_id, previousStatus: 'succeeded' } }]);
  });

  it('refuse to retry a delivery of a disabled endpoint (409 ENDPOINT_DISABLED), unchanged', async () => {
    const { guild, endpoint, deliveries, client } = await endpointWithDeliveries(['members.joined']);
    const id = deliveries[0]!.id;
    await setStatus(id, 'failed');
    const page = `/console/servers/${guild.id}/deliveries/${id}`;
    await client.get(page);
    await database.db.updateTable('webhook_endpoints').set({ enabled: false, disabled_reason: 'manual' }).where('id', '=', endpoint.id).execute();
    const res = await client.post(`${page}/retry`);
    expect([res.status, errorCodeOf(res)]).toEqual([409, 'ENDPOINT_DISABLED']);
    expect(await deliveryRow(id)).toMatchObject({ status: 'failed', retry_requested_at: null });
    expect(await auditOf(guild.id)).toEqual([]);
  });

  it('show each attempt’s request headers beside its answer, and say when an attempt’s were not recorded', async () => {
    const { guild, deliveries, client } = await endpointWithDeliveries(['members.joined']);
    const id = deliveries[0]!.id;
    const headers = { 'Service-Webhook-Id': deliveries[0]!.event_id, 'Service-Webhook-Timestamp': '1775044800', 'Service-Signature': `v1=${'a'.repeat(64)} v1=${'b'.repeat(64)}` };
    await recordAttempt(database.db, { deliveryId: id, attempt: 1, attemptedAt: NOW, durationMs: 5, statusCode: null, error: 'interrupted', responseExcerpt: null });
    await recordAttempt(database.db, { deliveryId: id, attempt: 2, attemptedAt: NOW, durationMs: 5, statusCode: 200, error: null, responseExcerpt: 'ok', requestHeaders: headers });
    const page = (await client.get(`/console/servers/${guild.id}/deliveries/${id}`)).text;
    const cell = (attempt: number) => new RegExp(`data-attempt="${attempt}".*?<td data-request-headers="true">(.*?)</td>`, 's').exec(page)?.[1];
    expect(cell(1)).toContain('not recorded');
    for (const [name, value] of Object.entries(headers)) expect(cell(2)).toContain(`<dt>${name}</dt><dd><code>${value}</code></dd>`);
  });
});
