import { WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { insertEndpoint, setEndpointEnabled } from '../../db/webhooks/webhooks.js';
import { systemClock } from '../../src/core/clock.js';
import { startFanouts } from '../../src/events/outbox.js';
import { MAX_BATCH_EVENTS, relayUnstartedBatches } from '../../src/events/batchLaunch.js';
import { FIRST_ATTEMPTS_PER_ENDPOINT } from '../../src/webhooks/firstAttempts.js';
import { webhookBatchWorkflowId } from '../../src/events/ids.js';
import { useTestDatabase } from '../harness/database.js';
import { eventually } from '../harness/eventually.js';
import { createTestGuild } from '../harness/fixtures.js';
import { testGateway, useTestWorker } from '../harness/temporal.js';
import { claimEventBatch } from '../../db/shared/events.js';
import { commitEvents, startEventReceiver } from './eventReceiver.js';

const database = useTestDatabase();
const gateway = testGateway();
useTestWorker(() => database.db, gateway);
const deps = () => ({ db: database.db, temporal: gateway, clock: systemClock });

const batchIdsOf = async (eventIds: string[]) =>
  (await database.db.selectFrom('events').select('batch_id').where('id', 'in', eventIds).execute()).map((r) => Number(r.batch_id));

const localActivityMarkers = (history: Awaited<ReturnType<WorkflowHandle['fetchHistory']>>) =>
  history.events!.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length;

const deliveriesOf = (endpointId: number) =>
  database.db.selectFrom('webhook_deliveries').select(['event_id', 'status', 'attempts']).where('endpoint_id', '=', endpointId).orderBy('id').execute();

describe('the endpoints an event goes to are decided when it commits', () => {
  it('skips an endpoint added after the commit, and stops for one disabled after it', async () => {
    const receivers = [await startEventReceiver(() => 204), await startEventReceiver(() => 204), await startEventReceiver(() => 204)];
    const [kept, later, disabled] = receivers;
    try {
      const guild = await createTestGuild(database.db);
      const keptEndpoint = await insertEndpoint(database.db, { guildId: guild.id, url: kept!.url, events: [], secret: 'whsec_kept' });
      const disabledEndpoint = await insertEndpoint(database.db, { guildId: guild.id, url: disabled!.url, events: ['members.joined'], secret: 'whsec_off' });
      const [before] = await commitEvents(database.db, guild.id, 1);
      // Both after the commit and before the event's batch runs, as in a queue of deliveries under load.
      const laterEndpoint = await insertEndpoint(database.db, { guildId: guild.id, url: later!.url, events: [], secret: 'whsec_later' });
      await setEndpointEnabled(database.db, disabledEndpoint.id, false, 'manual');
      const [after] = await commitEvents(database.db, guild.id, 1);

      await startFanouts(deps(), [{ id: before!, guildId: guild.id }, { id: after!, guildId: guild.id }] as never);
      for (const batchId of new Set(await batchIdsOf([before!, after!]))) await gateway.client.workflow.getHandle(webhookBatchWorkflowId(guild.id, batchId)).result();

      expect([...kept!.received.keys()].sort()).toEqual([before!, after!].sort());
      expect([...later!.received.keys()]).toEqual([after!]);
      expect(disabled!.total()).toBe(0);
      expect(await deliveriesOf(laterEndpoint.id)).toEqual([{ event_id: after!, status: 'succeeded', attempts: 1 }]);
      expect(await deliveriesOf(disabledEndpoint.id)).toEqual([{ event_id: before!, status: 'cancelled', attempts: 0 }]);
      expect((await deliveriesOf(keptEndpoint.id)).map((d) => d.status)).toEqual(['succeeded', 'succeeded']);
    } finally {
      for (const r of receivers) await r.close();
    }
  });
});

describe('batches', () => {
  it('gather the events committed while earlier batches start, and deliver each once', async () => {
    const receiver = await startEventReceiver(() => 204);
    try {
      const guild = await createTestGuild(database.db);
      const endpoint = await insertEndpoint(database.db, { guildId: guild.id, url: receiver.url, events: [], secret: 'whsec_many' });
      const eventIds = await commitEvents(database.db, guild.id, 60);
      // One start per committed event, all at once, as from many requests of a busy api process.
      await Promise.all(eventIds.map((id) => startFanouts(deps(), [{ id, guildId: guild.id }] as never)));
      const batches = new Set(await batchIdsOf(eventIds));
      expect(batches.size).toBeLessThan(eventIds.length / 4);
      await eventually(async () => receiver.total(), (n) => n >= eventIds.length);
      for (const batchId of batches) {
        const run = await gateway.client.workflow.getHandle(webhookBatchWorkflowId(guild.id, batchId)).describe();
        expect(run.typedSearchAttributes.get({ name: 'GuildId', type: 'KEYWORD' } as never)).toBe(guild.id);
      }
      expect([...receiver.received.values()].every((n) => n === 1)).toBe(true);
      expect(receiver.received.size).toBe(eventIds.length);
      const statuses = await deliveriesOf(endpoint.id);
      await eventually(async () => (await deliveriesOf(endpoint.id)).every((d) => d.status === 'succeeded'), (ok) => ok);
      expect(statuses).toHaveLength(eventIds.length);
      const started = await database.db.selectFrom('events').select('fanout_started_at').where('id', 'in', eventIds).execute();
      expect(started.every((e) => e.fanout_started_at !== null)).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('take the events handed over in one tick together, a hundred at most to a batch', async () => {
    const receiver = await startEventReceiver(() => 204);
    try {
      const guild = await createTestGuild(database.db);
      await insertEndpoint(database.db, { guildId: guild.id, url: receiver.url, events: [], secret: 'whsec_tick' });
      const eventIds = await commitEvents(database.db, guild.id, MAX_BATCH_EVENTS + 50);
      // As from many requests answered in one turn of the event loop: no batch of one leaves ahead of the rest.
      await Promise.all(eventIds.map((id) => startFanouts(deps(), [{ id, guildId: guild.id }] as never)));
      const sizes = new Map<number, number>();
      for (const batchId of await batchIdsOf(eventIds)) sizes.set(batchId, (sizes.get(batchId) ?? 0) + 1);
      expect([...sizes.values()].sort((a, b) => b - a)).toEqual([MAX_BATCH_EVENTS, 50]);
      for (const batchId of sizes.keys()) await gateway.client.workflow.getHandle(webhookBatchWorkflowId(guild.id, batchId)).result();
      expect(receiver.received.size).toBe(eventIds.length);
      expect([...receiver.received.values()].every((n) => n === 1)).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('launched after their claim carry its plan and skip the plan step; one the relay starts plans in its run', async () => {
    const receiver = await startEventReceiver(() => 204);
    try {
      const guild = await createTestGuild(database.db);
      const endpoint = await insertEndpoint(database.db, { guildId: guild.id, url: receiver.url, events: [], secret: 'whsec_plan' });
      const launched = await commitEvents(database.db, guild.id, 3);
      await startFanouts(deps(), launched.map((id) => ({ id, guildId: guild.id })) as never);
      const [launchedBatch] = new Set(await batchIdsOf(launched));
      const handle = gateway.client.workflow.getHandle(webhookBatchWorkflowId(guild.id, launchedBatch!));
      expect(await handle.result()).toEqual({ succeeded: 3, retrying: 0, cancelled: 0 });
      const history = await handle.fetchHistory();
      const input = JSON.parse(Buffer.from(history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!.data!).toString('utf8'));
      expect(input).toEqual({ batchId: launchedBatch, guildId: guild.id, plan: { endpointIds: [endpoint.id], bankLogEvents: 0 } });
      expect(localActivityMarkers(history)).toBe(0);

      const past = new Date(Date.now() - 60_000);
      const relayed = await commitEvents(database.db, guild.id, 2, past);
      const claimed = await claimEventBatch(database.db, relayed);
      expect(claimed!.plan).toEqual({ endpointIds: [endpoint.id], bankLogEvents: 0 });
      // The api died between the claim and the start: the relay starts the batch without a plan.
      await relayUnstartedBatches(deps());
      const relayedRun = gateway.client.workflow.getHandle(webhookBatchWorkflowId(guild.id, claimed!.batchId));
      expect(await relayedRun.result()).toEqual({ succeeded: 2, retrying: 0, cancelled: 0 });
      expect(localActivityMarkers(await relayedRun.fetchHistory())).toBe(1);
      expect(receiver.received.size).toBe(5);
    } finally {
      await receiver.close();
    }
  });

  it('with nothing to send (no endpoint, no bank log line) start no workflow and are done at their claim', async () => {
    const guild = await createTestGuild(database.db);
    const events = await commitEvents(database.db, guild.id, 2);
    await startFanouts(deps(), events.map((id) => ({ id, guildId: guild.id })) as never);
    const rows = await database.db.selectFrom('events').select(['batch_id', 'fanout_started_at']).where('id', 'in', events).execute();
    expect(rows.every((r) => r.batch_id !== null && r.fanout_started_at !== null)).toBe(true);
    const [batchId] = new Set(rows.map((r) => Number(r.batch_id)));
    await expect(gateway.client.workflow.getHandle(webhookBatchWorkflowId(guild.id, batchId!)).describe()).rejects.toThrow(WorkflowNotFoundError);
    // Nothing is left for the relay either.
    expect(await relayUnstartedBatches(deps(), { graceMs: 0, limit: 500 })).toBe(0);
  });

  it('are started by the relay when the start after the claim was lost, once', async () => {
    const receiver = await startEventReceiver(() => 204);
    try {
      const guild = await createTestGuild(database.db);
      await insertEndpoint(database.db, { guildId: guild.id, url: receiver.url, events: [], secret: 'whsec_relay' });
      const past = new Date(Date.now() - 60_000);
      const claimedIds = await commitEvents(database.db, guild.id, 3, past);
      const unclaimedIds = await commitEvents(database.db, guild.id, 2, past);
      // The api claimed a batch and died before starting it; two more events never reached a batch at all.
      const claimed = await claimEventBatch(database.db, claimedIds);
      expect(await relayUnstartedBatches(deps())).toBe(5);
      await gateway.client.workflow.getHandle(webhookBatchWorkflowId(guild.id, claimed!.batchId)).result();
      const [relayBatch] = new Set(await batchIdsOf(unclaimedIds));
      await gateway.client.workflow.getHandle(webhookBatchWorkflowId(guild.id, relayBatch!)).result();
      expect(await relayUnstartedBatches(deps())).toBe(0);
      await startFanouts(deps(), [...claimedIds, ...unclaimedIds].map((id) => ({ id, guildId: guild.id })) as never);
      expect(receiver.received.size).toBe(5);
      expect([...receiver.received.values()].every((n) => n === 1)).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});

describe('first attempts of one batch', () => {
  it('to a receiver that does not answer take at most its own share of attempts, and do not hold back another endpoint', async () => {
    let released = false;
    const slow = await startEventReceiver(() => (released ? 204 : 'hold'));
    const fast = await startEventReceiver(() => 204);
    try {
      const guild = await createTestGuild(database.db);
      await insertEndpoint(database.db, { guildId: guild.id, url: slow.url, events: [], secret: 'whsec_slow' });
      await insertEndpoint(database.db, { guildId: guild.id, url: fast.url, events: [], secret: 'whsec_fast' });
      const eventIds = await commitEvents(database.db, guild.id, 40);
      await startFanouts(deps(), eventIds.map((id) => ({ id, guildId: guild.id })) as never);

      // Every event reaches the fast receiver while the slow one still holds its first requests unanswered.
      expect(await eventually(async () => fast.received.size, (n) => n === eventIds.length, 8_000)).toBe(eventIds.length);
      expect(slow.held.length).toBeGreaterThan(0);
      expect(slow.held.length).toBeLessThanOrEqual(FIRST_ATTEMPTS_PER_ENDPOINT);
      expect(slow.received.size).toBe(slow.held.length);

      released = true;
      for (const res of slow.held.splice(0)) res.writeHead(204).end();
      for (const batchId of new Set(await batchIdsOf(eventIds))) await gateway.client.workflow.getHandle(webhookBatchWorkflowId(guild.id, batchId)).result();
      expect(slow.received.size).toBe(eventIds.length);
      expect([...slow.received.values(), ...fast.received.values()].every((n) => n === 1)).toBe(true);
    } finally {
      released = true;
      for (const res of slow.held.splice(0)) res.writeHead(204).end();
      await slow.close();
      await fast.close();
    }
  });
});
