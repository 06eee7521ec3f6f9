import { describe, expect, it } from 'vitest';
import { claimPurgeRequest } from '../../db/retention/purgePlan.js';
import { countHit } from '../../db/shared/rateLimits.js';
import { fixedClock } from '../../src/core/clock.js';
import { RETENTION_DAYS_BY_PLAN } from '../../src/core/retention.js';
import type { TemporalGateway } from '../../src/core/temporal/gateway.js';
import { billableActions } from '../../src/core/temporal/histories.js';
import { changeGuild } from '../../src/guild/guildManagement.js';
import { PURGE_SLACK_MS, retentionPurgeDispatcherId } from '../../src/keys/ids.js';
import { PLAN_HORIZON_MS, relayPurgeRequests, relayRecordsComingDue, wakeRetentionPurgerAtStart } from '../../src/keys/purgeDispatcher.js';
import { AREAS } from '../../process/areas.js';
import { collectRelays, collectWorkerStartSteps } from '../../process/registry.js';
import { eventually } from '../harness/eventually.js';
import { createTestGuild } from '../harness/fixtures.js';
import { insertAuditRow, insertXpChange } from '../harness/retentionRows.js';
import { runHistory, type HistoryEvent } from '../harness/runHistory.js';
import { useTimeSkippingTestBed } from '../harness/timeSkippingTestBed.js';

// The retention purge dispatcher (workflows/retentionPurgeDispatcher.ts) on the time-skipping server: a month passes
// in a moment, so what it costs with nothing due is counted from its history. The activities' clock moves with
// Temporal's (each env.sleep advances it first); the start relay's passes are called here as each worker's relay calls
// them every 2 s.
const clock = fixedClock(new Date());
const bed = useTimeSkippingTestBed({ taskQueue: 'retention-purge-test', clock });
const { db } = bed;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const MONTH = 30 * DAY;

const gateway = (): TemporalGateway => ({ client: bed.client, taskQueue: bed.taskQueue });
const relayDeps = () => ({ db: db(), temporal: gateway(), clock });
/** A relay of each worker: the look for records coming due runs at its first call. */
const relay = async () => (await relayRecordsComingDue()(relayDeps())) + (await relayPurgeRequests(relayDeps()));
/** Temporal's time and the activities' clock move together. */
async function pass(ms: number) {
  clock.advance(ms);
  await bed.env.sleep(ms);
}

const history = () => runHistory(bed.client, retentionPurgeDispatcherId(bed.taskQueue));
const passesDone = (events: HistoryEvent[]) => events.filter((e) => e.activityTaskCompletedEventAttributes).length;
const timersSet = (events: HistoryEvent[]) =>
  events.filter((e) => e.timerStartedEventAttributes).map((e) => Number(e.timerStartedEventAttributes!.startToFireTimeout!.seconds) * 1000);
/** The history once `n` passes completed and the run is asleep again on the next pass's timer. */
const untilPasses = (n: number) => eventually(history, (events) => passesDone(events) >= n && events.at(-1)?.timerStartedEventAttributes != null);
const plan = () => db().selectFrom('retention_purge_plan').selectAll().executeTakeFirstOrThrow();
const xpChanges = (guildId: string) => db().selectFrom('xp_changes').select('change_id').where('guild_id', '=', guildId).execute();

// The tests run in order on one dispatcher: idle, records coming due, a plan downgrade, a lost pass.
describe('retention purge dispatcher (time-skipping)', { timeout: 180_000 }, () => {
  it('costs a handful at idle: the relay sends nothing, and a month after the start pass adds one timer and one pass', async () => {
    expect(collectRelays(AREAS)).toContain(relayPurgeRequests);
    // Nothing stored, nothing asked: the relay's passes make no Temporal call at all (no dispatcher exists).
    expect(await relay()).toBe(0);
    expect(await history()).toEqual([]);

    expect(collectWorkerStartSteps(AREAS)).toContain(wakeRetentionPurgerAtStart);
    await wakeRetentionPurgerAtStart(gateway());
    const started = await untilPasses(1);
    // Nothing stored: the next pass is the shortest plan retention away (a record written now comes due no sooner).
    expect(timersSet(started)).toEqual([PLAN_HORIZON_MS]);
    expect(PLAN_HORIZON_MS).toBe(MONTH);
    expect((await plan()).planned_at).toEqual(new Date(clock.now().getTime() + PLAN_HORIZON_MS));
    // The worker start's cost: one signal-with-start, one pass, one timer.
    expect(billableActions(started)).toMatchObject({ starts: 1, signals: 1, timers: 1, activityAttempts: 1, total: 3 });

    // Thirty days of Temporal's time with nobody: the relay sends nothing; the timer fires once, for one pass.
    for (let day = 0; day < 30; day++) {
      await pass(DAY);
      expect(await relay()).toBe(0);
    }
    const month = await untilPasses(2);
    expect(timersSet(month)).toEqual([PLAN_HORIZON_MS, PLAN_HORIZON_MS]);
    expect(billableActions(month)).toMatchObject({ timers: 2, activityAttempts: 2, total: 5 });
  });

  it('a record written comes due and is purged within the hour after its due time, without a wake of its own kind', async () => {
    const before = await history();
    // A rate-limit window now (an API request): it ends in a minute. The relay's look asks for a pass an hour after.
    await countHit(db(), 'key:1', clock.now());
    expect(await relay()).toBe(1);
    expect(await relay()).toBe(0);
    const woken = await eventually(history, (events) => timersSet(events).length > timersSet(before).length);
    expect(timersSet(woken).at(-1)).toBe(MINUTE + PURGE_SLACK_MS);
    // A settled XP change of a Free server: it comes due 30 days on; the pass that purges the window plans for it.
    const guild = await createTestGuild(db(), { plan: 'free' });
    await insertXpChange(db(), guild.id, clock.now());
    const kept = await createTestGuild(db(), { plan: 'pro' });
    await insertXpChange(db(), kept.id, clock.now());

    // A second before the timer (the time-skipping server sleeps whole seconds), then to it.
    await pass(MINUTE + PURGE_SLACK_MS - 1_000);
    expect(await db().selectFrom('rate_limit_counters').selectAll().execute()).toHaveLength(1);
    await pass(1_000);
    const purged = await untilPasses(passesDone(before) + 1);
    expect(await db().selectFrom('rate_limit_counters').selectAll().execute()).toEqual([]);
    // Next: the Free change's due time (30 days after it) plus the hour, from this pass.
    const freeDue = RETENTION_DAYS_BY_PLAN.xpChanges.free * DAY;
    expect(timersSet(purged).at(-1)).toBe(freeDue - (MINUTE + PURGE_SLACK_MS) + PURGE_SLACK_MS);

    await pass(freeDue - MINUTE - 1_000);
    expect(await xpChanges(guild.id)).toHaveLength(1);
    await pass(1_000);
    await untilPasses(passesDone(before) + 2);
    expect(await xpChanges(guild.id)).toEqual([]);
    expect(await xpChanges(kept.id)).toHaveLength(1);
  });

  it("a plan downgrade wakes it at once and purges what the new retention expires; a wake that failed is sent again", async () => {
    const guild = await createTestGuild(db(), { plan: 'pro' });
    // Audit rows kept on Pro (365 days), past Free's 90.
    await insertAuditRow(db(), guild.id, new Date(clock.now().getTime() - 100 * DAY));
    const before = await history();
    expect(await relay()).toBe(0);

    await changeGuild(db(), guild.id, { plan: 'free' }, { type: 'operator', name: 'test' });
    // The signal fails (Temporal away): the request stays for the next relay pass.
    await expect(claimPurgeRequest(db(), () => Promise.reject(new Error('Temporal away')))).rejects.toThrow('Temporal away');
    expect((await plan()).wanted_at).not.toBeNull();
    expect(await relay()).toBe(1);
    expect(await relay()).toBe(0);
    await untilPasses(passesDone(before) + 1);
    const audit = await db().selectFrom('audit_log').select('created_at').where('guild_id', '=', guild.id).where('action', '=', 'test.action').execute();
    expect(audit).toEqual([]);
  });

  it('a pass lost with its worker loses nothing: the records stay, and the next worker start purges them', async () => {
    const guild = await createTestGuild(db(), { plan: 'free' });
    const done = await history();
    // Written due while the dispatcher sleeps (a pass that died before its delete committed leaves them so).
    await insertXpChange(db(), guild.id, new Date(clock.now().getTime() - 31 * DAY));
    expect(await xpChanges(guild.id)).toHaveLength(1);
    for (const step of collectWorkerStartSteps(AREAS).filter((s) => s === wakeRetentionPurgerAtStart)) await step(gateway());
    await untilPasses(passesDone(done) + 1);
    expect(await xpChanges(guild.id)).toEqual([]);
  });
});

