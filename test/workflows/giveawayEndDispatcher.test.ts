import { WorkflowNotFoundError } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { findDraw } from '../../db/giveaways/draws.js';
import { findGiveaway } from '../../db/giveaways/giveaways.js';
import { DEFAULT_GIVEAWAY_SETTINGS } from '../../db/giveaways/settings.js';
import type { Clock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import type { TemporalGateway } from '../../src/core/temporal/gateway.js';
import { billableActions } from '../../src/core/temporal/histories.js';
import { GiveawayStartRequest } from '../../src/giveaways/contract.js';
import { createGiveaway } from '../../src/giveaways/createGiveaway.js';
import { wakeEndDispatcher, wakeEndDispatcherAtStart } from '../../src/giveaways/endDispatcher.js';
import { giveawayInput } from '../../src/giveaways/giveawayOperation.js';
import { giveawayEndDispatcherId, giveawayEndsWakeSignal, giveawayWorkflowId } from '../../src/giveaways/ids.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { AREAS } from '../../process/areas.js';
import { collectActivities, collectWorkerStartSteps } from '../../process/registry.js';
import { giveawayRequests, type GiveawayGuild } from '../api/giveaways/giveawayBed.js';
import { eventually } from '../harness/eventually.js';
import { sharedBundle } from '../harness/temporal.js';
import type { TestApp } from '../harness/testApp.js';
import { useTimeSkippingTestBed } from '../harness/timeSkippingTestBed.js';

// The end dispatcher (workflows/giveawayEndDispatcher.ts) on the time-skipping server: a month passes in a moment, so
// what it costs while nothing is due is counted from its history, and each end comes on its timer. Each test runs its
// own worker on a queue of its own (its own dispatcher) with a clock the test moves as it skips Temporal's time.
const bed = useTimeSkippingTestBed({ taskQueue: 'giveaway-dispatcher-test' });
const { db } = bed;
const HOUR = 3_600_000;
const MONTH = 30 * 24 * HOUR;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

function movableClock(startMs: number): Clock & { set(ms: number): void } {
  let nowMs = startMs;
  return { now: () => new Date(nowMs), set: (ms) => void (nowMs = ms) };
}

// No sticky cache where a worker stops (the time-skipping server would hold a task for its sticky queue).
async function workerOn(queue: string, clock: Clock, maxCachedWorkflows = 0) {
  const deps = { db: db(), platform: createLocalPlatform(db()), clock, logger: createLogger('silent', queue), temporal: gatewayOf(queue), webhooks: { allowInsecureLocal: true } };
  return Worker.create({ connection: bed.env.nativeConnection, taskQueue: queue, workflowBundle: await sharedBundle(), activities: collectActivities(AREAS, deps), maxCachedWorkflows });
}
const gatewayOf = (taskQueue: string): TemporalGateway => ({ client: bed.client, taskQueue });

/** The dispatcher's history (its latest run), empty until the first wake started it. */
async function history(queue: string): Promise<HistoryEvent[]> {
  try {
    return (await bed.client.workflow.getHandle(giveawayEndDispatcherId(queue)).fetchHistory()).events ?? [];
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return [];
    throw err;
  }
}
const passesDone = (events: HistoryEvent[]) => events.filter((e) => e.activityTaskCompletedEventAttributes).length;
const timersSet = (events: HistoryEvent[]) =>
  events.filter((e) => e.timerStartedEventAttributes).map((e) => Number(e.timerStartedEventAttributes!.startToFireTimeout!.seconds) * 1000);
/** The history once `n` passes completed and the workflow task after the last one did (the run is asleep again). */
const untilPasses = (queue: string, n: number) =>
  eventually(() => history(queue), (events) => passesDone(events) >= n && events.at(-1)?.workflowTaskCompletedEventAttributes != null);
const untilTimers = (queue: string, n: number) => eventually(() => history(queue), (events) => timersSet(events).length >= n);

const actionsIn = (events: HistoryEvent[]) => billableActions(events).total;

const { setup } = giveawayRequests(db, {} as TestApp, { now: () => new Date() });

/** A giveaway from `startsAt` (the run activates it at once when that has passed) to `endsAt`, and its run started. */
async function openGiveaway(g: GiveawayGuild, queue: string, startsAt: number, endsAt: number, clock: Clock) {
  const body = GiveawayStartRequest.parse({ channelId: g.channelId, prize: 'Timed prize', startsAt: new Date(startsAt).toISOString(), endsAt: new Date(endsAt).toISOString() });
  const giveaway = await db()
    .transaction()
    .execute((trx) => createGiveaway(trx, { guildId: g.id, body, defaultHostId: g.ownerId, settings: DEFAULT_GIVEAWAY_SETTINGS, at: clock.now(), actor: { type: 'system' } }));
  await bed.client.workflow.start('giveaway', { taskQueue: queue, workflowId: giveawayWorkflowId(g.id, giveaway.id), args: [giveawayInput(giveaway)] });
  await eventually(() => findGiveaway(db(), g.id, giveaway.id), (row) => row?.status === 'active');
  return giveaway;
}
/** How far Temporal's time is from the last timer's firing. */
async function untilFired(queue: string): Promise<number> {
  const timer = (await history(queue)).filter((e) => e.timerStartedEventAttributes).at(-1)!;
  const firesAt = Number(timer.eventTime!.seconds) * 1000 + Math.ceil((timer.eventTime!.nanos ?? 0) / 1e6) + timersSet([timer])[0]!;
  return firesAt - (await bed.env.currentTimeMs());
}
const msOf = (d: { seconds?: unknown; nanos?: number | null }) => Number(d.seconds ?? 0) * 1000 + Math.floor((d.nanos ?? 0) / 1e6);
/** When each timer is due on the workflow's clock: the time of the task that set it (the run's `Date.now()`) plus its length. */
const timersDueAt = (events: HistoryEvent[]) =>
  events.flatMap((e, i) => {
    if (!e.timerStartedEventAttributes) return [];
    const task = events.slice(0, i).filter((t) => t.workflowTaskStartedEventAttributes).at(-1)!;
    return [msOf(task.eventTime!) + msOf(e.timerStartedEventAttributes.startToFireTimeout!)];
  });
/** When each activity of `type` in a workflow's history was scheduled: Temporal's time, by which the activity measures its clock. */
async function scheduledAt(workflowId: string, type: string): Promise<number[]> {
  const { events } = await bed.client.workflow.getHandle(workflowId).fetchHistory();
  return events!.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === type).map((e) => msOf(e.eventTime!));
}
const statusOf = async (g: GiveawayGuild, id: number) => (await findGiveaway(db(), g.id, id))!.status;
const untilEnded = (g: GiveawayGuild, id: number) => eventually(() => statusOf(g, id), (s) => s === 'ended');

describe('giveaway end dispatcher (time-skipping)', { timeout: 120_000 }, () => {
  it('costs nothing while nothing is due: after the start pass, a month passes with no event, timer or activity', async () => {
    const queue = bed.taskQueue;
    await wakeEndDispatcherAtStart(gatewayOf(queue));
    const started = await untilPasses(queue, 1);
    expect(timersSet(started)).toEqual([]);
    // The worker start's cost: one signal-with-start and one pass.
    expect(actionsIn(started)).toBe(2);

    await bed.env.sleep(MONTH);
    const after = await history(queue);
    expect(after.length).toBe(started.length);
    expect(actionsIn(after)).toBe(2);
  });

  it('sleeps on one timer until the earliest end, moves it for a giveaway ending sooner, ends each at its time, then idles', async () => {
    const queue = 'giveaway-dispatcher-order';
    const t0 = await bed.env.currentTimeMs();
    const clock = movableClock(t0);
    const worker = await workerOn(queue, clock);
    await worker.runUntil(async () => {
      const g = await setup();
      // Each wake carries its end on Temporal's clock, measured by the activation: the test's clock read t0 when the
      // activity was scheduled.
      const later = await openGiveaway(g, queue, t0, t0 + 3 * HOUR, clock);
      const [laterActivated] = await scheduledAt(giveawayWorkflowId(g.id, later.id), 'activateGiveaway');
      expect(timersDueAt(await untilTimers(queue, 1))).toEqual([laterActivated! + 3 * HOUR]);
      const sooner = await openGiveaway(g, queue, t0, t0 + HOUR, clock);
      const [soonerActivated] = await scheduledAt(giveawayWorkflowId(g.id, sooner.id), 'activateGiveaway');
      expect(timersDueAt(await untilTimers(queue, 2))).toEqual([laterActivated! + 3 * HOUR, soonerActivated! + HOUR]);
      expect(passesDone(await history(queue))).toBe(0);

      clock.set(t0 + HOUR + 1_000);
      await bed.env.sleep(HOUR + 1_000);
      await untilEnded(g, sooner.id);
      expect(await statusOf(g, later.id)).toBe('active');
      // Then asleep until the later one, on Temporal's clock as the pass measured it: its clock read t0 + 1 h 1 s
      // when the pass was scheduled.
      const third = timersDueAt(await untilTimers(queue, 3))[2]!;
      const [passScheduled] = await scheduledAt(giveawayEndDispatcherId(queue), 'endDueGiveaways');
      expect(third).toBe(passScheduled! + 2 * HOUR - 1_000);

      clock.set(t0 + 3 * HOUR + 1_000);
      await bed.env.sleep(2 * HOUR);
      await untilEnded(g, later.id);
      expect(await findDraw(db(), g.id, later.id, 1)).toMatchObject({ drawNumber: 1, entrants: 0 });
      const done = await untilPasses(queue, 2);

      // Both ended: no timer set after the second pass, and a month adds nothing.
      await bed.env.sleep(MONTH);
      const idle = await history(queue);
      expect(idle.length).toBe(done.length);
      expect(passesDone(idle)).toBe(2);
      expect(timersSet(idle)).toHaveLength(3);
      // Two giveaways: two wakes (the first a signal-with-start), three timers, two passes.
      expect(actionsIn(idle)).toBe(7);
    });
  });

  it('an end due while no worker polls is drawn when one returns; one lost with its dispatcher, at the next worker start', async () => {
    const queue = 'giveaway-dispatcher-restart';
    const t0 = await bed.env.currentTimeMs();
    const clock = movableClock(t0);
    const g = await setup();
    const first = await workerOn(queue, clock);
    const due = await first.runUntil(async () => {
      const opened = await openGiveaway(g, queue, t0, t0 + HOUR, clock);
      await untilTimers(queue, 1);
      return opened;
    });
    // No worker: the timer fires, its task waits; the giveaway is still active. (The server skips no time while a
    // task waits, so the sleep ends where the timer fires.)
    clock.set(t0 + 2 * HOUR);
    await bed.env.sleep(await untilFired(queue));
    expect(await statusOf(g, due.id)).toBe('active');

    const second = await workerOn(queue, clock);
    await second.runUntil(async () => {
      await untilEnded(g, due.id);
      expect(await findDraw(db(), g.id, due.id, 1)).toMatchObject({ drawNumber: 1 });

      // Temporal loses the dispatcher (an operator terminates it) while a giveaway is open: nothing ends it...
      const t1 = await bed.env.currentTimeMs();
      clock.set(t1);
      const lost = await openGiveaway(g, queue, t1, t1 + HOUR, clock);
      await untilTimers(queue, 2);
      await bed.client.workflow.getHandle(giveawayEndDispatcherId(queue)).terminate('lost');
      clock.set(t1 + 2 * HOUR);
      await bed.env.sleep(2 * HOUR);
      expect(await statusOf(g, lost.id)).toBe('active');
      // ...until a worker starts: its start wakes a new dispatcher, whose first pass finds the end due.
      expect(collectWorkerStartSteps(AREAS)).toContain(wakeEndDispatcherAtStart);
      for (const step of collectWorkerStartSteps(AREAS)) await step(gatewayOf(queue));
      await untilEnded(g, lost.id);
    });
  });

  it('plans a wake at the sooner of its time on Temporal\'s clock and its time left, counted from the task that handles it', async () => {
    const queue = 'giveaway-dispatcher-wake-times';
    const worker = await workerOn(queue, movableClock(await bed.env.currentTimeMs()), 10);
    await worker.runUntil(async () => {
      await wakeEndDispatcher(gatewayOf(queue), { inMs: 10 * 24 * HOUR });
      await untilTimers(queue, 1);
      const handle = bed.client.workflow.getHandle(giveawayEndDispatcherId(queue));
      const now = await bed.env.currentTimeMs();
      // A time left that a late task would count from later than it was meant: the time on Temporal's clock wins.
      await handle.signal(giveawayEndsWakeSignal, 2 * 24 * HOUR, now + 24 * HOUR);
      expect(timersDueAt(await untilTimers(queue, 2))[1]).toBe(now + 24 * HOUR);
      // A time on Temporal's clock later than the time left (a sender whose clock runs behind): the time left wins.
      await handle.signal(giveawayEndsWakeSignal, HOUR, now + 20 * HOUR);
      const third = (await untilTimers(queue, 3)).filter((e) => e.timerStartedEventAttributes)[2]!;
      expect(third.timerStartedEventAttributes!.startToFireTimeout).toMatchObject({ seconds: expect.anything(), nanos: 0 });
      expect(timersSet([third])).toEqual([HOUR]);
    });
  });

  it('continues as new once its history is long, carrying when its timer fires', async () => {
    const queue = 'giveaway-dispatcher-long';
    const clock = movableClock(await bed.env.currentTimeMs());
    const worker = await workerOn(queue, clock, 10);
    await worker.runUntil(async () => {
      await wakeEndDispatcher(gatewayOf(queue), { inMs: 10 * 24 * HOUR });
      await untilTimers(queue, 1);
      const handle = bed.client.workflow.getHandle(giveawayEndDispatcherId(queue));
      const { runId } = await handle.describe();
      // Wakes for later ends move nothing, yet each is an event: a burst of them grows the history.
      for (let i = 0; i < 22; i++) await Promise.all(Array.from({ length: 50 }, () => handle.signal('wake', 20 * 24 * HOUR)));
      const next = await eventually(() => handle.describe(), (d) => d.runId !== runId);
      expect(next.runId).not.toBe(runId);
      const events = await eventually(() => history(queue), (e) => timersSet(e).length >= 1);
      const started = events[0]!.workflowExecutionStartedEventAttributes!;
      expect(started.continuedExecutionRunId).toBe(runId);
      // It carried the end on Temporal's clock, not the time left (which the new run would count from its first task,
      // however long that task waited), and sleeps until that same moment.
      const [firstDue] = timersDueAt((await bed.client.workflow.getHandle(giveawayEndDispatcherId(queue), runId).fetchHistory()).events!);
      expect(defaultPayloadConverter.fromPayload(started.input!.payloads![0]!)).toEqual({ nextPassAt: firstDue });
      expect(timersDueAt(events)).toEqual([firstDue]);
    });
  });
});
