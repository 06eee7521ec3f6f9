import { randomUUID } from 'node:crypto';
import { ScheduleNotFoundError, ScheduleOverlapPolicy } from '@temporalio/client';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureSchedules, scheduleOptions, type ScheduleDefinition } from '../../src/core/temporal/schedules.js';
import { RETIRED_GIVEAWAY_ENDS_SCHEDULE_ID } from '../../src/giveaways/schedules.js';
import { collectRetiredSchedules, collectSchedules } from '../../process/registry.js';
import { AREAS } from '../../process/areas.js';
import { purgeExpiredRecordsWorkflow } from '../../src/keys/ids.js';
import { RETIRED_PURGE_SCHEDULE_ID } from '../../src/keys/schedules.js';
import { refreshLevelRanksWorkflow } from '../../src/levels/ids.js';
import { captureLogs } from '../harness/capturedLogs.js';
import { testGateway } from '../harness/temporal.js';

// Schedules against the real Temporal dev server: one created by an earlier release with another interval, workflow
// or task queue is brought to its declaration at start, an operator's pause kept; one that matches is left alone.

const gateway = testGateway();
const created: string[] = [];
const retiredIds = new Set<string>();
afterAll(async () => {
  for (const id of created.filter((c) => !retiredIds.has(c))) await gateway.client.schedule.getHandle(id).delete();
  await gateway.client.connection.close();
});

function declaration(every: string): ScheduleDefinition {
  const id = `test/reconcile-${randomUUID()}`;
  created.push(id);
  return { id, every, workflow: purgeExpiredRecordsWorkflow, operation: 'maintenance.purge', summary: 'a test schedule' };
}

/** What the previous release created: paused, so it never fires at a queue nobody polls. */
async function createdEarlier(schedule: ScheduleDefinition, taskQueue: string) {
  await gateway.client.schedule.create({ ...scheduleOptions(schedule, taskQueue), state: { paused: true, note: 'paused by an operator' } });
}

const stateOf = async (id: string) => {
  const { spec, action, policies, state, info } = await gateway.client.schedule.getHandle(id).describe();
  return { every: spec.intervals?.map((i) => i.every), workflowType: action.workflowType, taskQueue: action.taskQueue, overlap: policies.overlap, paused: state.paused, note: state.note, updated: info.lastUpdatedAt !== undefined };
};

describe('ensureSchedules at start', () => {
  it('updates a schedule whose interval changed to the declared one, keeping it paused, and logs what changed', async () => {
    const schedule = declaration('1 minute');
    await createdEarlier({ ...schedule, every: '1 hour' }, gateway.taskQueue);
    const { logger, lines } = captureLogs();
    await ensureSchedules(gateway, [schedule], logger);
    expect(await stateOf(schedule.id)).toEqual({ every: [60_000], workflowType: 'purgeExpiredRecords', taskQueue: gateway.taskQueue, overlap: ScheduleOverlapPolicy.SKIP, paused: true, note: 'paused by an operator', updated: true });
    const fields = { every: 60_000, overlap: ScheduleOverlapPolicy.SKIP, workflowType: 'purgeExpiredRecords', taskQueue: gateway.taskQueue, workflowId: schedule.id };
    expect(lines.map(({ level, msg, scheduleId, was, now }) => ({ level, msg, scheduleId, was, now }))).toEqual([
      { level: 30, msg: 'schedule updated to its declaration', scheduleId: schedule.id, was: { ...fields, every: 3_600_000 }, now: fields },
    ]);
  });

  it('updates the task queue and workflow type an earlier release gave it', async () => {
    const schedule = declaration('1 hour');
    await createdEarlier({ ...schedule, workflow: refreshLevelRanksWorkflow }, 'an-old-queue');
    await ensureSchedules(gateway, [schedule], captureLogs().logger);
    expect(await stateOf(schedule.id)).toMatchObject({ every: [3_600_000], workflowType: 'purgeExpiredRecords', taskQueue: gateway.taskQueue });
  });

  it('leaves a schedule that matches its declaration untouched, and says nothing', async () => {
    const schedule = declaration('1 hour');
    await createdEarlier(schedule, gateway.taskQueue);
    const { logger, lines } = captureLogs();
    await ensureSchedules(gateway, [schedule], logger);
    expect(await stateOf(schedule.id)).toMatchObject({ every: [3_600_000], taskQueue: gateway.taskQueue, paused: true, updated: false });
    expect(lines).toEqual([]);
  });

  it('deletes a schedule an earlier release declared and this one retires (a running one too), logging it; a second start finds none', async () => {
    const retired = declaration('1 second');
    retiredIds.add(retired.id);
    await gateway.client.schedule.create(scheduleOptions(retired, gateway.taskQueue));
    const kept = declaration('1 hour');
    await createdEarlier(kept, gateway.taskQueue);
    const { logger, lines } = captureLogs();
    await ensureSchedules(gateway, [kept], logger, [retired.id]);
    await expect(gateway.client.schedule.getHandle(retired.id).describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
    expect(await stateOf(kept.id)).toMatchObject({ every: [3_600_000], paused: true, updated: false });
    expect(lines.map(({ level, msg, scheduleId }) => ({ level, msg, scheduleId }))).toEqual([{ level: 30, msg: 'retired schedule deleted', scheduleId: retired.id }]);

    const again = captureLogs();
    await ensureSchedules(gateway, [kept], again.logger, [retired.id]);
    expect(again.lines).toEqual([]);
  });

  it('the every-second giveaway ends schedule and the hourly purge are among the ids every worker start retires; none is declared', () => {
    expect(collectRetiredSchedules(AREAS)).toEqual(expect.arrayContaining([RETIRED_GIVEAWAY_ENDS_SCHEDULE_ID, RETIRED_PURGE_SCHEDULE_ID]));
    expect([RETIRED_GIVEAWAY_ENDS_SCHEDULE_ID, RETIRED_PURGE_SCHEDULE_ID]).toEqual(['giveaways/ends', 'maintenance/purge-expired-records']);
    // Nothing is scheduled: what remained (the purge) runs when a record comes due (retentionPurgeDispatcher.test.ts).
    expect(collectSchedules(AREAS)).toEqual([]);
  });
});
