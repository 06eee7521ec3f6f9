import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { findDraw } from '../../db/giveaways/draws.js';
import { findGiveaway } from '../../db/giveaways/giveaways.js';
import { DEFAULT_GIVEAWAY_SETTINGS } from '../../db/giveaways/settings.js';
import { fixedClock, systemClock, type Clock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { relayGiveawayCloses } from '../../src/giveaways/cancelRelay.js';
import { GiveawayStartRequest } from '../../src/giveaways/contract.js';
import { createGiveaway } from '../../src/giveaways/createGiveaway.js';
import { drawDueGiveaways, END_BATCH_LIMITS } from '../../src/giveaways/endDueGiveaways.js';
import { giveawayInput } from '../../src/giveaways/giveawayOperation.js';
import { giveawayWorkflowId, REROLL_WINDOW_MS } from '../../src/giveaways/ids.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { AREAS } from '../../process/areas.js';
import { collectActivities } from '../../process/registry.js';
import { giveawayRequests, type GiveawayGuild } from '../api/giveaways/giveawayBed.js';
import { eventually } from '../harness/eventually.js';
import { sharedBundle } from '../harness/temporal.js';
import type { TestApp } from '../harness/testApp.js';
import { useTimeSkippingTestBed } from '../harness/timeSkippingTestBed.js';

// The time-skipping server fires the start timer at once; the end is the batch's (ends_at in PostgreSQL).
const bed = useTimeSkippingTestBed({ taskQueue: 'giveaway-timers-test' });
const { db, taskQueue } = bed;
const { setup, enter } = giveawayRequests(db, {} as TestApp, systemClock);
const HOUR = 3_600_000;

async function create(g: GiveawayGuild, startsInMs: number, lastsMs: number) {
  // Workflow time is the test server's clock, which runs ahead of the wall clock once it skipped.
  const startsAt = new Date((await bed.env.currentTimeMs()) + startsInMs);
  const body = GiveawayStartRequest.parse({
    channelId: g.channelId,
    prize: 'Timed prize',
    startsAt: startsAt.toISOString(),
    endsAt: new Date(startsAt.getTime() + lastsMs).toISOString(),
  });
  return db()
    .transaction()
    .execute((trx) => createGiveaway(trx, { guildId: g.id, body, defaultHostId: g.ownerId, settings: DEFAULT_GIVEAWAY_SETTINGS, at: new Date(), actor: { type: 'system' } }));
}

const eventTime = (e: { eventTime?: { seconds?: unknown; nanos?: number | null } | null }) => Number(e.eventTime!.seconds) * 1000 + (e.eventTime!.nanos ?? 0) / 1e6;

const untilActive = async (g: GiveawayGuild, id: number) => {
  for (let i = 0; i < 200 && (await findGiveaway(db(), g.id, id))!.status !== 'active'; i++) await new Promise((r) => setTimeout(r, 50));
  expect((await findGiveaway(db(), g.id, id))!.status).toBe('active');
};

describe('giveaway timers (time-skipping)', () => {
  it('waits for startsAt on a timer and posts; keeps no end timer: the batch draws it at endsAt, the close relay ends the run', async () => {
    const g = await setup();
    const giveaway = await create(g, HOUR, 2 * HOUR);
    const handle = await bed.client.workflow.start('giveaway', { taskQueue, workflowId: giveawayWorkflowId(g.id, giveaway.id), args: [giveawayInput(giveaway)] });
    await bed.env.sleep(HOUR + 1_000);
    await untilActive(g, giveaway.id);
    // The batch's pass, on a clock at the end (the end dispatcher that runs it: test/workflows/giveawayEndDispatcher.test.ts).
    const deps = { db: db(), platform: createLocalPlatform(db()), clock: fixedClock(giveaway.endsAt), logger: createLogger('silent', taskQueue), temporal: { client: bed.client, taskQueue } };
    expect(await drawDueGiveaways(deps, END_BATCH_LIMITS)).toEqual({ claimed: 1, drawn: 1 });
    const after = (await findGiveaway(db(), g.id, giveaway.id))!;
    expect(after).toMatchObject({ status: 'ended', winnerIds: [] });
    expect(after.messageUrl).not.toBeNull();
    expect(await findDraw(db(), g.id, giveaway.id, 1)).toMatchObject({ winnerIds: [], entrants: 0, entries: 0, checkedEntrants: 0, shortfall: 1 });

    const closing = { ...deps, clock: fixedClock(new Date(giveaway.endsAt.getTime() + REROLL_WINDOW_MS + 60_000)) };
    expect(await relayGiveawayCloses(closing)).toBe(1);
    expect(await handle.result()).toEqual({ status: 'ended', draws: 1 });
    // One timer, until the start (1 h); the message goes up when it fires, not before.
    const events = (await handle.fetchHistory()).events!;
    const timers = events.filter((e) => e.timerStartedEventAttributes).map((e) => Number(e.timerStartedEventAttributes!.startToFireTimeout!.seconds) * 1000);
    expect(timers).toHaveLength(1);
    expect(Math.abs(timers[0]! - HOUR)).toBeLessThan(5_000);
    const started = eventTime(events[0]!);
    const firstActivity = events.find((e) => e.activityTaskScheduledEventAttributes)!;
    expect(eventTime(firstActivity) - started).toBeGreaterThanOrEqual(HOUR - 5_000);
  });

  it('a worker restarted between the start and the end: the end, held in PostgreSQL, is drawn by the end dispatcher on the new worker', async () => {
    const g = await setup();
    const members = [await g.addMember(), await g.addMember()];
    const giveaway = await create(g, 0, 3 * HOUR);
    const queue = `${taskQueue}-restart`;
    const deps = { db: db(), platform: createLocalPlatform(db()), clock: systemClock, logger: createLogger('silent', queue), temporal: { client: bed.client, taskQueue: queue }, webhooks: { allowInsecureLocal: true } };
    // No sticky cache: the time-skipping server would hold the next task for the stopped worker's sticky queue.
    const makeWorker = async (clock: Clock) =>
      Worker.create({
        connection: bed.env.nativeConnection,
        taskQueue: queue,
        workflowBundle: await sharedBundle(),
        activities: collectActivities(AREAS, { ...deps, clock }),
        maxCachedWorkflows: 0,
      });

    // On Temporal's time, which ran ahead of the wall clock in the test before: the dispatcher's timer is 3 h.
    const first = await makeWorker(fixedClock(new Date(await bed.env.currentTimeMs())));
    const running = first.run();
    await bed.client.workflow.start('giveaway', { taskQueue: queue, workflowId: giveawayWorkflowId(g.id, giveaway.id), args: [giveawayInput(giveaway)] });
    await untilActive(g, giveaway.id);
    for (const m of members) await enter(g, giveaway.id, m);
    first.shutdown();
    await running;

    // The end dispatcher's timer (set when the first worker activated the giveaway) fires at the end, on the new worker.
    const second = await makeWorker(fixedClock(giveaway.endsAt));
    await second.runUntil(async () => {
      await bed.env.sleep(3 * HOUR);
      await eventually(() => findGiveaway(db(), g.id, giveaway.id), (row) => row!.status === 'ended');
    });
    expect((await findGiveaway(db(), g.id, giveaway.id))!.status).toBe('ended');
    const draw = await findDraw(db(), g.id, giveaway.id, 1);
    expect(draw).toMatchObject({ entrants: 2, checkedEntrants: 2, shortfall: 0 });
    expect(members).toContain(draw!.winnerIds[0]);
  });
});
