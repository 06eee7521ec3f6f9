import { describe, expect, it } from 'vitest';
import { saveBankSettings } from '../../db/bank/accounts.js';
import { setPlatformReachable } from '../../db/platform/local.js';
import { listPlatformMessages } from '../../db/platform/messages.js';
import { applyBankChange } from '../../src/bank/applyBankChange.js';
import { systemClock } from '../../src/core/clock.js';
import { startFanouts } from '../../src/events/outbox.js';
import { relayUnstartedBatches } from '../../src/events/batchLaunch.js';
import { webhookBatchWorkflowId } from '../../src/events/ids.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { eventually } from '../harness/eventually.js';
import { addTestMember, bearer, createTestGuild, createTestKey, snowflake } from '../harness/fixtures.js';
import { startReceiver } from '../harness/receiver.js';
import { insertEndpoint } from '../../db/webhooks/webhooks.js';
import { verifyWebhook } from '../../src/webhooks/verifyWebhook.js';
import { eventEnvelope } from '../../src/events/contract.js';
import { retryDelivery } from '../../src/webhooks/deliveryRetries.js';
import { sendTestEvent } from '../../src/webhooks/testEvents.js';
import { relayDeliveryRetries } from '../../src/webhooks/deliveryRelay.js';

const { database, gateway, app } = useWorkflowTestBed();

async function guildWithLogChannel() {
  const guild = await createTestGuild(database.db);
  const logChannelId = snowflake();
  await saveBankSettings(database.db, guild.id, {
    currency: { name: 'coin', plural: 'coins', emoji: '🪙' },
    startingBalance: 0,
    maxBalance: null,
    logChannelId,
  });
  const userId = await addTestMember(database.db, guild);
  return { guild, logChannelId, userId };
}

const messagesIn = (guildId: string, channelId: string) => () => listPlatformMessages(database.db, guildId, channelId);

async function batchOf(eventId: string) {
  const event = await database.db.selectFrom('events').select(['batch_id', 'guild_id']).where('id', '=', eventId).executeTakeFirstOrThrow();
  return gateway.client.workflow.getHandle(webhookBatchWorkflowId(event.guild_id, Number(event.batch_id)));
}

describe('bank log and webhooks through the batched fan-out', () => {
  it('posts an API change in the bank log channel exactly once', async () => {
    const { guild, logChannelId, userId } = await guildWithLogChannel();
    const { key } = await createTestKey(database.db, guild, { scopes: ['bank:write'] });
    const res = await app.http('POST', `/guilds/${guild.id}/bank/members/${userId}/transactions`, {
      headers: bearer(key),
      body: { type: 'add', amount: 1500, reason: 'event prize' },
    });
    expect(res.status).toBe(201);
    const messages = await eventually(messagesIn(guild.id, logChannelId), (m) => m.length > 0);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.content).toBe(
      `🪙 +1,500 coins for <@${userId}> (api by <@${guild.ownerId}>) balance 1,500 — event prize [#${res.body.transactionId}]`,
    );
    const event = await database.db.selectFrom('events').selectAll().where('guild_id', '=', guild.id).executeTakeFirstOrThrow();
    expect(event.fanout_started_at).not.toBeNull();
    const run = await (await batchOf(event.id)).describe();
    expect(run.typedSearchAttributes.get({ name: 'GuildId', type: 'KEYWORD' } as never)).toBe(guild.id);
    expect(run.typedSearchAttributes.get({ name: 'Operation', type: 'KEYWORD' } as never)).toBe('webhook.batch');
    expect(await run.staticSummary()).toMatch(/^Batch \d+: fan-out and first webhook attempts of 1 event\(s\) of guild /);
  });

  it('relays an event whose fan-out never started (crash between commit and start), once', async () => {
    const { guild, logChannelId, userId } = await guildWithLogChannel();
    const past = new Date(Date.now() - 60_000);
    // The change commits but nothing starts its fan-out, as when the api dies right after its commit.
    const { events } = await database.db.transaction().execute((trx) =>
      applyBankChange(trx, {
        guildId: guild.id,
        userId,
        type: 'add',
        amount: 5,
        reason: null,
        actor: { type: 'api_key', apiKeyId: 0, userId: null },
        requestId: 'crashed',
        at: past,
      }),
    );
    const deps = { db: database.db, temporal: gateway, clock: systemClock };
    expect(await relayUnstartedBatches(deps)).toBeGreaterThanOrEqual(1);
    await eventually(messagesIn(guild.id, logChannelId), (m) => m.length > 0);
    // A second pass and a repeated start of the same event deliver nothing more.
    await relayUnstartedBatches(deps);
    await startFanouts(deps, events);
    await (await batchOf(events[0]!.id)).result();
    expect(await messagesIn(guild.id, logChannelId)()).toHaveLength(1);
  });

  it('delivers the event once to each subscribed endpoint, signed, and not to the others', async () => {
    const { guild, userId } = await guildWithLogChannel();
    const { key } = await createTestKey(database.db, guild, { scopes: ['bank:write'] });
    const [bankHook, levelsHook] = [await startReceiver([200]), await startReceiver([200])];
    try {
      await insertEndpoint(database.db, { guildId: guild.id, url: bankHook.url, events: ['bank.transaction'], secret: 'whsec_bank' });
      await insertEndpoint(database.db, { guildId: guild.id, url: levelsHook.url, events: ['levels.levelUp'], secret: 'whsec_levels' });
      const res = await app.http('POST', `/guilds/${guild.id}/bank/members/${userId}/transactions`, {
        headers: bearer(key),
        body: { type: 'add', amount: 7 },
      });
      await eventually(async () => bankHook.received.length, (n) => n > 0);
      const delivered = bankHook.received[0]!;
      expect(JSON.parse(delivered.body)).toMatchObject({ type: 'bank.transaction', guildId: guild.id, data: { transactionId: res.body.transactionId, amount: 7 } });
      expect(verifyWebhook(delivered.body, delivered.headers, 'whsec_bank').ok).toBe(true);
      // The delivered payload is exactly what the OpenAPI document's webhooks section promises.
      expect(eventEnvelope('bank.transaction').strict().parse(JSON.parse(delivered.body))).toBeDefined();
      const deliveries = await database.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', delivered.headers['service-webhook-id'] as string).execute();
      await eventually(async () => (await database.db.selectFrom('webhook_deliveries').select('status').where('id', '=', deliveries[0]!.id).executeTakeFirstOrThrow()).status, (s) => s === 'succeeded');
      expect(bankHook.received).toHaveLength(1);
      expect(levelsHook.received).toHaveLength(0);
    } finally {
      await bankHook.close();
      await levelsHook.close();
    }
  });

  it('delivers the webhook while the bank log post still waits for the platform', async () => {
    const { guild, logChannelId, userId } = await guildWithLogChannel();
    const hook = await startReceiver([200]);
    try {
      await insertEndpoint(database.db, { guildId: guild.id, url: hook.url, events: ['bank.transaction'], secret: 'whsec_outage' });
      await setPlatformReachable(database.db, guild.id, false);
      const { events } = await database.db.transaction().execute((trx) =>
        applyBankChange(trx, { guildId: guild.id, userId, type: 'add', amount: 3, reason: null, actor: { type: 'api_key', apiKeyId: 0, userId: null }, requestId: 'outage', at: new Date() }),
      );
      const event = events[0]!;
      await startFanouts({ db: database.db, temporal: gateway, clock: systemClock }, [event]);
      await eventually(async () => hook.received.length, (n) => n > 0);
      expect(JSON.parse(hook.received[0]!.body)).toMatchObject({ id: event.id, type: 'bank.transaction' });
      expect(await messagesIn(guild.id, logChannelId)()).toEqual([]);
      const fanout = await batchOf(event.id);
      expect((await fanout.describe()).status.name).toBe('RUNNING');

      await setPlatformReachable(database.db, guild.id, true);
      await fanout.result();
      expect(await messagesIn(guild.id, logChannelId)()).toHaveLength(1);
      expect(hook.received).toHaveLength(1);
    } finally {
      await hook.close();
    }
  });

  it('delivers an operator test event to its one endpoint, and a manual retry sends a failed delivery again', async () => {
    const guild = await createTestGuild(database.db);
    const receiver = await startReceiver([200]);
    const other = await startReceiver([200]);
    try {
      const endpoint = await insertEndpoint(database.db, { guildId: guild.id, url: receiver.url, events: [], secret: 'whsec_t' });
      await insertEndpoint(database.db, { guildId: guild.id, url: other.url, events: [], secret: 'whsec_o' });
      const deps = { db: database.db, clock: systemClock, actor: { type: 'system' } as const, allowInsecureLocal: true };
      const { id: eventId } = await sendTestEvent(deps, guild.id, endpoint.id);
      await database.db.updateTable('events').set({ created_at: new Date(Date.now() - 60_000) }).where('id', '=', eventId).execute();
      await relayUnstartedBatches({ db: database.db, temporal: gateway, clock: systemClock });
      await eventually(async () => receiver.received.length, (n) => n > 0);
      expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ id: eventId, type: 'webhook.test', data: { endpointId: endpoint.id } });

      const delivery = await database.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', eventId).executeTakeFirstOrThrow();
      await eventually(async () => (await database.db.selectFrom('webhook_deliveries').select('status').where('id', '=', delivery.id).executeTakeFirstOrThrow()).status, (s) => s === 'succeeded');
      // Pretend it had failed: an operator's retry starts another round, numbered after the first.
      await database.db.updateTable('webhook_deliveries').set({ status: 'failed' }).where('id', '=', delivery.id).execute();
      await retryDelivery(deps, guild.id, delivery.id);
      expect(await relayDeliveryRetries({ db: database.db, temporal: gateway })).toBe(1);
      await eventually(async () => receiver.received.length, (n) => n > 1);
      const attempts = await eventually(
        () => database.db.selectFrom('webhook_attempts').select('attempt').where('delivery_id', '=', delivery.id).orderBy('attempt').execute(),
        (rows) => rows.length === 2,
      );
      expect(attempts.map((a) => a.attempt)).toEqual([1, 2]);
      expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
      expect(other.received).toHaveLength(0);
    } finally {
      await receiver.close();
      await other.close();
    }
  });
});
