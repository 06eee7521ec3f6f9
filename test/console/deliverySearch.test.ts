import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { insertEvent } from '../../db/shared/events.js';
import { insertEndpoint, recordAttempt } from '../../db/webhooks/webhooks.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { consoleClient, errorCodeOf, managedGuild } from './consoleClient.js';

const NOW = new Date('2026-04-10T12:00:00.000Z');
const { database, app } = useApiTestBed({ now: NOW, temporal: true, env: { CONSOLE_SIGN_IN_LIMIT: '1000' } });

// created_at is never changed by the service (its column type says so); a test backdates it in SQL.
const backdate = (id: number, at: Date) => sql`update webhook_deliveries set created_at = ${at} where id = ${id}`.execute(database.db);
const shownIds = (html: string) => [...html.matchAll(/data-delivery-id="(\d+)"/g)].map((m) => Number(m[1]));

/**
 * A server with two endpoints and one delivery to each per case: its status, creation day and last attempt's answer.
 * Another server's failed delivery stays out of every list.
 */
async function serverWithDeliveries() {
  const guild = await managedGuild(database.db);
  const a = await insertEndpoint(database.db, { guildId: guild.id, url: 'https://hooks.example.com/a', events: [], secret: 'whsec_a' });
  const b = await insertEndpoint(database.db, { guildId: guild.id, url: 'https://hooks.example.com/b', events: ['members.left'], secret: 'whsec_b' });
  const cases = [
    { name: 'failedA500', type: 'members.joined', day: '2026-04-01', status: 'failed', code: 500 },
    { name: 'failedB0', type: 'members.left', day: '2026-04-05', status: 'failed', code: null },
    { name: 'okA200', type: 'members.joined', day: '2026-04-05', status: 'succeeded', code: 200 },
    { name: 'pendingB', type: 'members.left', day: '2026-04-09', status: 'pending', code: undefined },
  ] as const;
  const ids: Record<string, { id: number; eventId: string }> = {};
  for (const c of cases) {
    const event = await insertEvent(database.db, { type: c.type, guildId: guild.id, createdAt: NOW, data: {} });
    const endpointId = c.type === 'members.left' ? b.id : a.id;
    const row = await database.db
      .updateTable('webhook_deliveries')
      .set({ status: c.status })
      .where('event_id', '=', event.id)
      .where('endpoint_id', '=', endpointId)
      .returning('id')
      .executeTakeFirstOrThrow();
    await backdate(row.id, new Date(`${c.day}T08:00:00.000Z`));
    if (c.code !== undefined) {
      await recordAttempt(database.db, { deliveryId: row.id, attempt: 1, attemptedAt: NOW, durationMs: 3, statusCode: c.code, error: c.code ? null : 'timeout', responseExcerpt: null });
    }
    ids[c.name] = { id: row.id, eventId: event.id };
  }
  // The event members.left also went to endpoint a (it takes every type): drop those to keep one delivery per case.
  await database.db.deleteFrom('webhook_deliveries').where('endpoint_id', '=', a.id).where('id', 'not in', [ids.failedA500!.id, ids.okA200!.id]).execute();
  const other = await managedGuild(database.db, 'Other');
  const foreign = await insertEndpoint(database.db, { guildId: other.id, url: 'https://hooks.example.com/o', events: [], secret: 'whsec_o' });
  await insertEvent(database.db, { type: 'members.joined', guildId: other.id, createdAt: NOW, data: {} });
  await database.db.updateTable('webhook_deliveries').set({ status: 'failed' }).where('endpoint_id', '=', foreign.id).execute();
  const client = consoleClient(app.baseUrl);
  await client.signIn(guild.managerId);
  return { guild, a, b, ids, client };
}

describe('the server-wide deliveries view', () => {
  it('lists the failed deliveries of every endpoint of the server, with each one’s endpoint, and nobody else’s', async () => {
    const { guild, a, b, ids, client } = await serverWithDeliveries();
    const page = await client.get(`/console/servers/${guild.id}/deliveries?status=failed`);
    expect(page.status).toBe(200);
    expect(shownIds(page.text)).toEqual([ids.failedB0!.id, ids.failedA500!.id]);
    expect(page.text).toContain(`href="/console/servers/${guild.id}/webhooks/${a.id}"`);
    expect(page.text).toContain(`href="/console/servers/${guild.id}/webhooks/${b.id}"`);
    expect(shownIds((await client.get(`/console/servers/${guild.id}/deliveries`)).text)).toEqual([ids.pendingB!.id, ids.okA200!.id, ids.failedB0!.id, ids.failedA500!.id]);
    expect((await client.get(`/console/servers/${guild.id}/webhooks`)).text).toContain(`href="/console/servers/${guild.id}/deliveries?status=failed"`);
  });

  it.each([
    ['an event id', (ids: Record<string, { eventId: string }>) => `event_id=${ids.okA200!.eventId}`, ['okA200']],
    ['a day range', () => 'from=2026-04-05&to=2026-04-09', ['pendingB', 'okA200', 'failedB0']],
    ['a start day alone', () => 'from=2026-04-06', ['pendingB']],
    ['an end day alone (the whole day included)', () => 'to=2026-04-05', ['okA200', 'failedB0', 'failedA500']],
    ['the last answer’s status code', () => 'code=500', ['failedA500']],
    ['no answer at the last attempt', () => 'code=none', ['failedB0']],
    ['status and code together', () => 'status=succeeded&code=200', ['okA200']],
  ])('finds deliveries by %s', async (_, query, expected) => {
    const { guild, ids, client } = await serverWithDeliveries();
    const page = await client.get(`/console/servers/${guild.id}/deliveries?${query(ids)}`);
    expect(page.status).toBe(200);
    expect(shownIds(page.text)).toEqual(expected.map((name) => ids[name]!.id));
  });

  it('applies the same filters to one endpoint’s list', async () => {
    const { guild, a, ids, client } = await serverWithDeliveries();
    const page = await client.get(`/console/servers/${guild.id}/webhooks/${a.id}/deliveries?from=2026-04-02&code=200`);
    expect(shownIds(page.text)).toEqual([ids.okA200!.id]);
    expect(page.text).toContain('value="2026-04-02"');
  });

  it.each([
    ['an event id without evt_', 'event_id=abc'],
    ['a day that does not exist', 'from=2026-02-30'],
    ['a day in another format', 'to=10/04/2026'],
    ['a range that ends before it starts', 'from=2026-04-05&to=2026-04-01'],
    ['a status code out of range', 'code=700'],
    ['a status code that is not a number', 'code=5xx'],
    ['an unknown status', 'status=lost'],
  ])('refuses %s with 400 INVALID_INPUT', async (_, query) => {
    const { guild, client } = await serverWithDeliveries();
    const res = await client.get(`/console/servers/${guild.id}/deliveries?${query}`);
    expect([res.status, errorCodeOf(res)]).toEqual([400, 'INVALID_INPUT']);
  });

  it('is refused to a member who does not manage the server (403), and lists nothing of another server through this one', async () => {
    const { guild, client } = await serverWithDeliveries();
    const member = consoleClient(app.baseUrl);
    await member.signIn(guild.memberId);
    const res = await member.get(`/console/servers/${guild.id}/deliveries?status=failed`);
    expect([res.status, errorCodeOf(res)]).toEqual([403, 'NOT_A_SERVER_MANAGER']);
    const other = await database.db.selectFrom('webhook_deliveries as d').innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id').select('d.event_id').where('e.guild_id', '!=', guild.id).execute();
    for (const { event_id } of other) expect(shownIds((await client.get(`/console/servers/${guild.id}/deliveries?event_id=${event_id}`)).text)).toEqual([]);
  });
});
