import { describe, expect, it } from 'vitest';
import { insertEndpoint } from '../../db/webhooks/webhooks.js';
import { EVENT_DATA_SCHEMAS } from '../../src/events/contract.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { consoleClient, errorCodeOf, managedGuild } from './consoleClient.js';

const NOW = new Date('2026-04-10T12:00:00.000Z');
const { database, app } = useApiTestBed({ now: NOW, temporal: true, env: { CONSOLE_SIGN_IN_LIMIT: '1000' } });

async function managerWithEndpoint(events: string[] = ['members.joined']) {
  const guild = await managedGuild(database.db);
  const endpoint = await insertEndpoint(database.db, { guildId: guild.id, url: 'https://hooks.example.com/t', events, secret: 'whsec_t' });
  const client = consoleClient(app.baseUrl);
  await client.signIn(guild.managerId);
  return { guild, endpoint, client, base: `/console/servers/${guild.id}/webhooks/${endpoint.id}` };
}

const eventsOf = (guildId: string) => database.db.selectFrom('events').selectAll().where('guild_id', '=', guildId).execute();
const deliveriesOf = (guildId: string) =>
  database.db.selectFrom('webhook_deliveries as d').innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id').select(['d.endpoint_id', 'd.body', 'd.status']).where('e.guild_id', '=', guildId).execute();

describe('test events', () => {
  it('sends an example of any event type to its one endpoint, whatever it subscribes to, with data of that type’s schema', async () => {
    const { guild, endpoint, client, base } = await managerWithEndpoint(['members.joined']);
    const other = await insertEndpoint(database.db, { guildId: guild.id, url: 'https://hooks.example.com/other', events: [], secret: 'whsec_o' });
    const form = await client.get(`${base}/test`);
    expect(form.text).toContain('<option value="bank.transaction">bank.transaction</option>');
    const res = await client.post(`${base}/test`, { type: 'bank.transaction' });
    expect(res.status).toBe(303);
    const [event] = await eventsOf(guild.id);
    // Recorded as a test, so no bank log line, flow or other endpoint takes it for a real change.
    expect(event).toMatchObject({ type: 'webhook.test', data: { endpointId: endpoint.id, exampleType: 'bank.transaction' } });
    expect(res.headers.location).toBe(`/console/servers/${guild.id}/deliveries?event_id=${event!.id}`);
    const deliveries = await deliveriesOf(guild.id);
    expect(deliveries.map((d) => d.endpoint_id)).toEqual([endpoint.id]);
    expect(deliveries.map((d) => d.endpoint_id)).not.toContain(other.id);
    const body = JSON.parse(deliveries[0]!.body) as { id: string; type: string; createdAt: string; guildId: string; data: unknown };
    expect(body).toMatchObject({ id: event!.id, type: 'bank.transaction', createdAt: NOW.toISOString(), guildId: guild.id });
    expect(EVENT_DATA_SCHEMAS['bank.transaction'].strict().safeParse(body.data).success).toBe(true);
    const audit = await database.db.selectFrom('audit_log').select(['action', 'data']).where('guild_id', '=', guild.id).where('actor_type', '=', 'console_user').where('action', '!=', 'console.signIn').execute();
    expect(audit).toEqual([{ action: 'webhook.test', data: { eventId: event!.id, type: 'bank.transaction' } }]);
    expect((await client.get(res.headers.location!)).text).toContain(`<code class="muted">${event!.id}</code>`);
  });

  it('sends webhook.test as before when that type is picked', async () => {
    const { guild, endpoint, client, base } = await managerWithEndpoint();
    await client.get(`${base}/test`);
    expect((await client.post(`${base}/test`, { type: 'webhook.test' })).status).toBe(303);
    const [delivery] = await deliveriesOf(guild.id);
    expect(JSON.parse(delivery!.body)).toMatchObject({ type: 'webhook.test', data: { endpointId: endpoint.id, message: 'This is a test event sent by an operator.' } });
  });

  it('says on the page that a disabled endpoint gets nothing, and refuses its POST with 409 ENDPOINT_DISABLED on the same page, sending nothing', async () => {
    const { guild, endpoint, client, base } = await managerWithEndpoint();
    await client.get(`${base}/test`);
    await database.db.updateTable('webhook_endpoints').set({ enabled: false, disabled_reason: 'manual' }).where('id', '=', endpoint.id).execute();
    const page = await client.get(`${base}/test`);
    expect(page.text).toContain('data-error="ENDPOINT_DISABLED"');
    expect(page.text).toContain('Events raised while it is disabled are never delivered');
    expect(page.text).not.toContain('Send the test event');
    // The form opened before it was disabled.
    const [, token] = [...client.state.forms].find(([action]) => action === `${base}/test`) ?? [];
    expect(token).toBeDefined();
    const res = await client.post(`${base}/test`, { type: 'webhook.test' }, { form: token! });
    expect([res.status, errorCodeOf(res)]).toEqual([409, 'ENDPOINT_DISABLED']);
    expect(res.text).toContain('<title>Send a test event');
    expect(await eventsOf(guild.id)).toEqual([]);
    expect(await deliveriesOf(guild.id)).toEqual([]);
  });

  it('refuses an unknown event type (422 UNKNOWN_EVENT), sending nothing', async () => {
    const { guild, client, base } = await managerWithEndpoint();
    await client.get(`${base}/test`);
    const res = await client.post(`${base}/test`, { type: 'nothing.happened' });
    expect([res.status, errorCodeOf(res)]).toEqual([422, 'UNKNOWN_EVENT']);
    expect(await eventsOf(guild.id)).toEqual([]);
  });
});
