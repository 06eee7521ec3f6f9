import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/core/clock.js';
import { useTestDatabase } from '../harness/database.js';
import { cli, cliGuild } from './cli.js';

const database = useTestDatabase();
const clock = fixedClock(new Date('2026-11-22T10:00:00Z'));
const run = cli(() => database.db, clock);

const endpointsOf = (guildId: string) =>
  database.db.selectFrom('webhook_endpoints').selectAll().where('guild_id', '=', guildId).orderBy('id').execute();

describe('webhook commands', () => {
  it('adds an endpoint with a whsec_ secret shown once, lists and shows it without the secret', async () => {
    const { id } = await cliGuild(run);
    const added = await run('webhook', 'add', '--guild', id, '--url', 'https://hooks.example.com/in', '--events', 'bank.transaction,levels.levelUp', '--json');
    expect(added.code).toBe(0);
    expect(added.json()).toMatchObject({ id: expect.any(Number), url: 'https://hooks.example.com/in', events: ['bank.transaction', 'levels.levelUp'], enabled: true, secret: expect.stringMatching(/^whsec_/) });
    const listed = await run('webhook', 'list', '--guild', id, '--json');
    expect(listed.stdout).not.toContain(added.json().secret);
    expect(listed.json().items).toHaveLength(1);
    expect((await run('webhook', 'show', '--guild', id, '--id', String(added.json().id))).stdout).toContain('hooks.example.com');
    const audit = await database.db.selectFrom('audit_log').select(['action', 'actor_id']).where('guild_id', '=', id).where('action', 'like', 'webhook.%').execute();
    expect(audit).toEqual([{ action: 'webhook.add', actor_id: 'alice' }]);
  });

  it.each([
    ['http://hooks.example.com/in', 'must use https://'],
    ['https://user:pw@hooks.example.com/in', 'user name or password'],
    ['https://10.0.0.5/in', 'private or internal'],
    ['https://[::ffff:127.0.0.1]/in', 'private or internal'],
    ['https://localhost/in', 'private or internal'],
  ])('refuses %s and stores nothing', async (url, reason) => {
    const { id } = await cliGuild(run);
    const res = await run('webhook', 'add', '--guild', id, '--url', url, '--events', 'all', '--json');
    expect(res.code).toBe(1);
    expect(res.error()).toEqual({ error: 'INVALID_URL', message: expect.stringContaining(reason) });
    expect(await endpointsOf(id)).toEqual([]);
  });

  it('refuses unknown event types', async () => {
    const { id } = await cliGuild(run);
    const res = await run('webhook', 'add', '--guild', id, '--url', 'https://hooks.example.com/in', '--events', 'bank.transaction,cats.meowed', '--json');
    expect(res.error().error).toBe('UNKNOWN_EVENT');
  });

  it.each([
    ['free', 1],
    ['pro', 10],
  ] as const)('allows %s servers %i endpoints', async (plan, limit) => {
    const { id } = await cliGuild(run, { plan });
    for (let i = 0; i < limit; i++) expect((await run('webhook', 'add', '--guild', id, '--url', `https://hooks.example.com/${i}`, '--events', 'all')).code).toBe(0);
    const over = await run('webhook', 'add', '--guild', id, '--url', 'https://hooks.example.com/x', '--events', 'all', '--json');
    expect(over.code).toBe(1);
    expect(over.error().error).toBe('ENDPOINT_LIMIT_REACHED');
  });

  it('rotates the secret, disables, enables and removes an endpoint', async () => {
    const { id } = await cliGuild(run);
    const { id: endpointId, secret } = (await run('webhook', 'add', '--guild', id, '--url', 'https://hooks.example.com/in', '--events', 'all', '--json')).json();
    const rotated = (await run('webhook', 'rotate-secret', '--guild', id, '--id', String(endpointId), '--json')).json();
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);
    expect((await endpointsOf(id))[0]!.secret).toBe(rotated.secret);
    expect(rotated.previousSecretExpiresAt).toBeNull();
    const overlapping = (await run('webhook', 'rotate-secret', '--guild', id, '--id', String(endpointId), '--overlap', '24h', '--json')).json();
    expect(overlapping.previousSecretExpiresAt).toBe(new Date(clock.now().getTime() + 86_400_000).toISOString());
    expect((await endpointsOf(id))[0]).toMatchObject({ secret: overlapping.secret, previous_secret: rotated.secret });
    const refused = await run('webhook', 'rotate-secret', '--guild', id, '--id', String(endpointId), '--overlap', '7d', '--json');
    expect(refused.error().error).toBe('INVALID_ARGUMENT');
    expect((await endpointsOf(id))[0]!.secret).toBe(overlapping.secret);
    await run('webhook', 'disable', '--guild', id, '--id', String(endpointId));
    expect((await endpointsOf(id))[0]).toMatchObject({ enabled: false, disabled_reason: 'manual' });
    await run('webhook', 'enable', '--guild', id, '--id', String(endpointId));
    expect((await endpointsOf(id))[0]).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    await run('webhook', 'remove', '--guild', id, '--id', String(endpointId));
    expect((await run('webhook', 'list', '--guild', id, '--json')).json().items).toEqual([]);
    const gone = await run('webhook', 'show', '--guild', id, '--id', String(endpointId), '--json');
    expect(gone.code).not.toBe(0);
  });

  it('queues a webhook.test event for one endpoint, and retries only failed deliveries', async () => {
    const { id } = await cliGuild(run);
    const { id: endpointId } = (await run('webhook', 'add', '--guild', id, '--url', 'https://hooks.example.com/in', '--events', 'all', '--json')).json();
    const test = (await run('webhook', 'test', '--guild', id, '--id', String(endpointId), '--json')).json();
    const event = await database.db.selectFrom('events').selectAll().where('id', '=', test.eventId).executeTakeFirstOrThrow();
    expect(event).toMatchObject({ type: 'webhook.test', guild_id: id, data: { endpointId, message: expect.any(String) }, fanout_started_at: null });

    // Its one delivery is written with it; here it failed all its attempts.
    const delivery = await database.db
      .updateTable('webhook_deliveries')
      .set({ status: 'failed', completed_at: new Date() })
      .where('event_id', '=', test.eventId)
      .where('endpoint_id', '=', endpointId)
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await run('webhook', 'retry', '--guild', id, '--delivery', String(delivery.id))).code).toBe(0);
    const retried = await database.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', delivery.id).executeTakeFirstOrThrow();
    expect(retried).toMatchObject({ status: 'pending', retry_requested_at: clock.now() });
    const again = await run('webhook', 'retry', '--guild', id, '--delivery', String(delivery.id), '--json');
    expect(again.error().error).toBe('DELIVERY_NOT_RETRYABLE');
    const listed = (await run('webhook', 'deliveries', '--guild', id, '--endpoint', String(endpointId), '--json')).json();
    expect(listed.items).toEqual([expect.objectContaining({ id: delivery.id, eventId: test.eventId, status: 'pending', attempts: [] })]);
  });
});
