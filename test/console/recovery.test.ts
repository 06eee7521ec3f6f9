import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { insertEvent } from '../../db/shared/events.js';
import { insertEndpoint } from '../../db/webhooks/webhooks.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { consoleClient, errorCodeOf, managedGuild } from './consoleClient.js';

const NOW = new Date('2026-04-10T12:00:00.000Z');
const { database, app } = useApiTestBed({ now: NOW, temporal: true, env: { CONSOLE_SIGN_IN_LIMIT: '1000' } });

const statuses = (endpointId: number) =>
  database.db.selectFrom('webhook_deliveries').select(['id', 'status']).where('endpoint_id', '=', endpointId).orderBy('id').execute();
const recoverAudit = (guildId: string) =>
  database.db.selectFrom('audit_log').select(['action', 'data']).where('guild_id', '=', guildId).where('action', '=', 'webhook.recover').orderBy('id').execute();

/** An endpoint with deliveries created at the given times and statuses, and a signed-in manager on its recover page. */
async function endpointWith(deliveries: Array<{ at: string; status: 'pending' | 'succeeded' | 'failed' | 'cancelled' }>) {
  const guild = await managedGuild(database.db);
  const endpoint = await insertEndpoint(database.db, { guildId: guild.id, url: 'https://hooks.example.com/r', events: [], secret: 'whsec_r' });
  const ids: number[] = [];
  for (const d of deliveries) {
    const event = await insertEvent(database.db, { type: 'members.joined', guildId: guild.id, createdAt: NOW, data: {} });
    const row = await database.db
      .updateTable('webhook_deliveries')
      .set({ status: d.status, completed_at: d.status === 'pending' ? null : new Date(d.at) })
      .where('event_id', '=', event.id)
      .returning('id')
      .executeTakeFirstOrThrow();
    // created_at is never changed by the service (its column type says so); the test backdates it in SQL.
    await sql`update webhook_deliveries set created_at = ${new Date(d.at)} where id = ${row.id}`.execute(database.db);
    ids.push(row.id);
  }
  const client = consoleClient(app.baseUrl);
  await client.signIn(guild.managerId);
  const base = `/console/servers/${guild.id}/webhooks/${endpoint.id}`;
  return { guild, endpoint, ids, client, base };
}

describe('recovering failed deliveries', () => {
  it('gives every delivery failed or cancelled since the time one more round, once, however often it is asked', async () => {
    const { guild, endpoint, ids, client, base } = await endpointWith([
      { at: '2026-04-08T10:00:00Z', status: 'failed' },
      { at: '2026-04-09T09:00:00Z', status: 'failed' },
      { at: '2026-04-09T10:00:00Z', status: 'cancelled' },
      { at: '2026-04-09T11:00:00Z', status: 'succeeded' },
      { at: '2026-04-09T12:00:00Z', status: 'pending' },
    ]);
    const page = await client.get(`${base}/recover`);
    // A day back by default, on the service's clock.
    expect(page.text).toContain('value="2026-04-09T12:00"');
    const res = await client.post(`${base}/recover`, { since: '2026-04-09T09:00' });
    expect([res.status, res.headers.location]).toEqual([303, `${base}/deliveries?status=pending`]);
    expect(await statuses(endpoint.id)).toEqual([
      { id: ids[0], status: 'failed' },
      { id: ids[1], status: 'pending' },
      { id: ids[2], status: 'pending' },
      { id: ids[3], status: 'succeeded' },
      { id: ids[4], status: 'pending' },
    ]);
    // Their rounds started at once (no worker polls here): the requests are taken, none waits for the relay.
    const requested = await database.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpoint.id).where('retry_requested_at', 'is not', null).execute();
    expect(requested).toEqual([]);

    // Asked again from a fresh form: the recovered deliveries are pending now, not failed, so nothing is sent twice.
    await client.get(`${base}/recover`);
    expect((await client.post(`${base}/recover`, { since: '2026-04-01T00:00' })).status).toBe(303);
    expect((await statuses(endpoint.id)).map((d) => d.status)).toEqual(['pending', 'pending', 'pending', 'succeeded', 'pending']);
    expect(await recoverAudit(guild.id)).toEqual([
      { action: 'webhook.recover', data: { since: '2026-04-09T09:00:00.000Z', deliveries: 2 } },
      { action: 'webhook.recover', data: { since: '2026-04-01T00:00:00.000Z', deliveries: 1 } },
    ]);
  });

  it('sends each failed delivery once when two recoveries race', async () => {
    const { guild, endpoint, client, base } = await endpointWith(Array.from({ length: 6 }, (_, i) => ({ at: `2026-04-09T0${i}:00:00Z`, status: 'failed' as const })));
    const second = consoleClient(app.baseUrl);
    await second.signIn(guild.managerId);
    await Promise.all([client.get(`${base}/recover`), second.get(`${base}/recover`)]);
    const answers = await Promise.all([client.post(`${base}/recover`, { since: '2026-04-09T00:00' }), second.post(`${base}/recover`, { since: '2026-04-09T00:00' })]);
    expect(answers.map((r) => r.status)).toEqual([303, 303]);
    const counts = (await recoverAudit(guild.id)).map((a) => (a.data as { deliveries: number }).deliveries).sort();
    expect(counts).toEqual([0, 6]);
    expect((await statuses(endpoint.id)).every((d) => d.status === 'pending')).toBe(true);
  });

  it.each([
    ['no time', {}],
    ['a time that is not one', { since: 'yesterday' }],
    ['a date without a time', { since: '2026-04-09' }],
  ])('refuses %s with 400 INVALID_INPUT, changing nothing', async (_, fields) => {
    const { guild, endpoint, client, base } = await endpointWith([{ at: '2026-04-09T10:00:00Z', status: 'failed' }]);
    await client.get(`${base}/recover`);
    const res = await client.post(`${base}/recover`, fields);
    expect([res.status, errorCodeOf(res)]).toEqual([400, 'INVALID_INPUT']);
    expect((await statuses(endpoint.id)).map((d) => d.status)).toEqual(['failed']);
    expect(await recoverAudit(guild.id)).toEqual([]);
  });

  it('refuses a disabled endpoint (409 ENDPOINT_DISABLED: its rounds would be cancelled at once), changing nothing', async () => {
    const { guild, endpoint, client, base } = await endpointWith([{ at: '2026-04-09T10:00:00Z', status: 'failed' }]);
    await client.get(`${base}/recover`);
    await database.db.updateTable('webhook_endpoints').set({ enabled: false, disabled_reason: 'failing' }).where('id', '=', endpoint.id).execute();
    expect((await client.get(`${base}/recover`)).text).toContain('data-error="ENDPOINT_DISABLED"');
    const res = await client.post(`${base}/recover`, { since: '2026-04-09T00:00' });
    expect([res.status, errorCodeOf(res)]).toEqual([409, 'ENDPOINT_DISABLED']);
    expect((await statuses(endpoint.id)).map((d) => d.status)).toEqual(['failed']);
    expect(await recoverAudit(guild.id)).toEqual([]);
  });

  it("refuses another server's endpoint (404 here, 403 through its server) and a missing form token (400), changing nothing", async () => {
    const mine = await endpointWith([]);
    const theirs = await endpointWith([{ at: '2026-04-09T10:00:00Z', status: 'failed' }]);
    const viaMine = await mine.client.post(`/console/servers/${mine.guild.id}/webhooks/${theirs.endpoint.id}/recover`, { since: '2026-04-01T00:00' });
    expect([viaMine.status, errorCodeOf(viaMine)]).toEqual([404, 'ENDPOINT_NOT_FOUND']);
    const viaTheirs = await mine.client.post(`${theirs.base}/recover`, { since: '2026-04-01T00:00' });
    expect([viaTheirs.status, errorCodeOf(viaTheirs)]).toEqual([403, 'NOT_A_SERVER_MANAGER']);
    const noToken = await theirs.client.post(`${theirs.base}/recover`, { since: '2026-04-01T00:00' }, { form: null });
    expect([noToken.status, errorCodeOf(noToken)]).toEqual([400, 'FORM_TOKEN_INVALID']);
    expect((await statuses(theirs.endpoint.id)).map((d) => d.status)).toEqual(['failed']);
  });
});
