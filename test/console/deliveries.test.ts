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

  it('retry only a failed or cancelled delivery of this server: 409 for one pending, 404 for another server’s', async () => {
    const a = await endpointWithDeliveries(['members.joined']);
    const b = await endpointWithDeliveries(['members.joined']);
    const pending = await a.client.post(`/console/servers/${a.guild.id}/deliveries/${a.deliveries[0]!.id}/retry`);
    expect(pending.status).toBe(409);
    expect(errorCodeOf(pending)).toBe('DELIVERY_NOT_RETRYABLE');
    await database.db.updateTable('webhook_deliveries').set({ status: 'failed' }).where('id', '=', b.deliveries[0]!.id).execute();
    const foreign = await a.client.post(`/console/servers/${a.guild.id}/deliveries/${b.deliveries[0]!.id}/retry`);
    expect(foreign.status).toBe(404);
    expect(errorCodeOf(foreign)).toBe('PAGE_NOT_FOUND');
    expect((await a.client.get(`/console/servers/${a.guild.id}/deliveries/${b.deliveries[0]!.id}`)).status).toBe(404);
    const row = await database.db.selectFrom('webhook_deliveries').select(['status', 'retry_requested_at']).where('id', '=', b.deliveries[0]!.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'failed', retry_requested_at: null });
  });
});
