import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { findRankSnapshot, snapshotRank } from '../../db/levels/ranks.js';
import { claimUnwokenMarks, takeDirtyMarks } from '../../db/shared/rankMarks.js';
import { LEVEL_RANKS } from '../../db/levels/ranks.js';
import { systemClock } from '../../src/core/clock.js';
import type { TemporalGateway } from '../../src/core/temporal/gateway.js';
import { billableActions } from '../../src/core/temporal/histories.js';
import { RANK_SNAPSHOT_THRESHOLD } from '../../src/levels/leaderboard.js';
import { RECOUNT_BATCH_MS, rankRecountDispatcherId } from '../../src/ranks/ids.js';
import { relayGrownServers, relayRankWakes, wakeRankRecounterAtStart } from '../../src/ranks/recountDispatcher.js';
import { AREAS } from '../../process/areas.js';
import { collectRetiredSchedules, collectSchedules, collectWorkerStartSteps } from '../../process/registry.js';
import { createTestGuild } from '../harness/fixtures.js';
import { eventually } from '../harness/eventually.js';
import { runHistory, type HistoryEvent } from '../harness/runHistory.js';
import { useTimeSkippingTestBed } from '../harness/timeSkippingTestBed.js';

// The rank recount dispatcher (workflows/rankRecountDispatcher.ts) on the time-skipping server: a month passes in a
// moment, so what it costs while no server changes is counted from its history. The start relay's passes
// (relayGrownServers, relayRankWakes) are called here as each worker's relay calls them every 2 s.
const bed = useTimeSkippingTestBed({ taskQueue: 'rank-recount-test' });
const { db } = bed;
const DAY = 24 * 3_600_000;
const MONTH = 30 * DAY;
const FIRST = 1_400_000_000_000_000_000n;

const gateway = (): TemporalGateway => ({ client: bed.client, taskQueue: bed.taskQueue });
const relayDeps = () => ({ db: db(), temporal: gateway(), clock: systemClock });

const history = () => runHistory(bed.client, rankRecountDispatcherId(bed.taskQueue));
const passesDone = (events: HistoryEvent[]) => events.filter((e) => e.activityTaskCompletedEventAttributes).length;
const signals = (events: HistoryEvent[]) => events.filter((e) => e.workflowExecutionSignaledEventAttributes).length;
const timersSet = (events: HistoryEvent[]) =>
  events.filter((e) => e.timerStartedEventAttributes).map((e) => Number(e.timerStartedEventAttributes!.startToFireTimeout!.seconds) * 1000);
/** The history once `n` passes completed and the workflow task after the last one did (the run is asleep again). */
const untilPasses = (n: number) => eventually(history, (events) => passesDone(events) >= n && events.at(-1)?.workflowTaskCompletedEventAttributes != null);
const untilTimers = (n: number) => eventually(history, (events) => timersSet(events).length >= n);
const mark = (guildId: string) => db().selectFrom('rank_marks').selectAll().where('board', '=', 'levels').where('guild_id', '=', guildId).executeTakeFirst();

/** A server with RANK_SNAPSHOT_THRESHOLD + 5 members, member i at 10 + i XP (the highest index ranks first). */
async function largeServer(): Promise<{ id: string; lowest: string }> {
  const guild = await createTestGuild(db());
  await sql`INSERT INTO level_members (guild_id, user_id, xp, last_xp_at)
    SELECT ${guild.id}, (${sql.lit(FIRST.toString())}::numeric + i)::text, 10 + i, now()
    FROM generate_series(0, ${RANK_SNAPSHOT_THRESHOLD + 4}) AS i`.execute(db());
  return { id: guild.id, lowest: FIRST.toString() };
}
const setXp = (guildId: string, userId: string, xp: number) =>
  db().updateTable('level_members').set({ xp }).where('guild_id', '=', guildId).where('user_id', '=', userId).execute();

// The tests run in order on one dispatcher: idle, a server's first snapshot and a change, concurrent marks, crashes.
describe('rank recount dispatcher (time-skipping)', { timeout: 180_000 }, () => {
  let server: { id: string; lowest: string };

  it('costs nothing at idle: the relay sends nothing, and after the start pass a month adds no event', async () => {
    expect(collectSchedules(AREAS).map((s) => s.id)).not.toContain('maintenance/refresh-level-ranks');
    expect(collectRetiredSchedules(AREAS)).toEqual(expect.arrayContaining(['maintenance/refresh-level-ranks', 'maintenance/refresh-invite-ranks']));
    // No server changed: the relay's passes make no Temporal call at all (no dispatcher exists).
    expect(await relayGrownServers()(relayDeps())).toBe(0);
    expect(await relayRankWakes(relayDeps())).toBe(0);
    expect(await history()).toEqual([]);

    expect(collectWorkerStartSteps(AREAS)).toContain(wakeRankRecounterAtStart);
    await wakeRankRecounterAtStart(gateway());
    const started = await untilPasses(1);
    expect(timersSet(started)).toEqual([]);
    // The worker start's cost: one signal-with-start and one pass.
    expect(billableActions(started).total).toBe(2);

    await bed.env.sleep(MONTH);
    expect(await relayRankWakes(relayDeps())).toBe(0);
    const after = await history();
    expect(after.length).toBe(started.length);
    expect(billableActions(after).total).toBe(2);
  });

  it("a server grown large gets its snapshot a minute after the relay sees it; a member's change shows a minute after its wake", async () => {
    server = await largeServer();
    expect(await relayGrownServers()(relayDeps())).toBe(0);
    expect(await mark(server.id)).toMatchObject({ woken: false, recount_due: false });
    expect((await mark(server.id))!.dirty_since).not.toBeNull();
    expect(await relayRankWakes(relayDeps())).toBe(1);
    // One pass, a minute after the wake (the retired schedule's minute): the timer is the freshness bound.
    expect(timersSet(await untilTimers(1))).toEqual([RECOUNT_BATCH_MS]);
    expect(await findRankSnapshot(db(), server.id)).toBeUndefined();
    await bed.env.sleep(RECOUNT_BATCH_MS);
    await untilPasses(2);
    expect(await findRankSnapshot(db(), server.id)).toMatchObject({ total: RANK_SNAPSHOT_THRESHOLD + 5 });
    expect(await mark(server.id)).toMatchObject({ dirty_since: null, woken: false, recount_due: false });

    // The lowest member overtakes everybody: the write's trigger marks the server, the relay wakes the dispatcher.
    await setXp(server.id, server.lowest, 1_000_000);
    expect((await mark(server.id))!.dirty_since).not.toBeNull();
    expect(await relayRankWakes(relayDeps())).toBe(1);
    expect(timersSet(await untilTimers(2))).toEqual([RECOUNT_BATCH_MS, RECOUNT_BATCH_MS]);
    // Until the minute is up the snapshot stands (the changes of the minute are recounted together)...
    expect(await snapshotRank(db(), server.id, server.lowest)).toBe(RANK_SNAPSHOT_THRESHOLD + 5);
    await bed.env.sleep(RECOUNT_BATCH_MS);
    await untilPasses(3);
    // ...and at its end the snapshot shows the change.
    expect(await snapshotRank(db(), server.id, server.lowest)).toBe(1);

    // Nothing changes any more: a month adds nothing to the history.
    const done = await history();
    await bed.env.sleep(MONTH);
    expect(await relayRankWakes(relayDeps())).toBe(0);
    expect((await history()).length).toBe(done.length);
  });

  it('concurrent changes and concurrent relays wake the dispatcher once', async () => {
    const before = await history();
    const members = Array.from({ length: 20 }, (_, i) => (FIRST + BigInt(i + 1)).toString());
    // Twenty transactions at once: only the first flips the mark (the others wait on it and find it dirty).
    await Promise.all(members.map((userId, i) => setXp(server.id, userId, 2_000_000 + i)));
    const dirty = (await mark(server.id))!.dirty_since;
    expect(dirty).not.toBeNull();
    // Four workers' relays at once: one claims the flip and signals, the others find it woken.
    const sent = await Promise.all(Array.from({ length: 4 }, () => relayRankWakes(relayDeps())));
    expect(sent.reduce((a, b) => a + b, 0)).toBe(1);
    const woken = await untilTimers(timersSet(before).length + 1);
    expect(signals(woken) - signals(before)).toBe(1);
    await bed.env.sleep(RECOUNT_BATCH_MS);
    await untilPasses(passesDone(before) + 1);
    expect(await snapshotRank(db(), server.id, members[19]!)).toBe(1);
    expect(await snapshotRank(db(), server.id, server.lowest)).toBe(21);
  });

  it('a crash loses no change: a wake that failed is sent by the next relay pass; a taken mark is recounted at the next worker start', async () => {
    // The relay's signal fails (Temporal away, or the process dies before it): the claim rolls back, the mark stays unwoken.
    await setXp(server.id, server.lowest, 3_000_000);
    await expect(claimUnwokenMarks(db(), () => Promise.reject(new Error('Temporal away')))).rejects.toThrow('Temporal away');
    expect(await mark(server.id)).toMatchObject({ woken: false });
    const before = await history();
    expect(await relayRankWakes(relayDeps())).toBe(1);
    await untilTimers(timersSet(before).length + 1);

    // A pass takes the mark and its worker dies before the recount commits: the mark says recount_due.
    await takeDirtyMarks(db(), 'levels', LEVEL_RANKS);
    expect(await mark(server.id)).toMatchObject({ dirty_since: null, recount_due: true });
    expect(await snapshotRank(db(), server.id, server.lowest)).toBe(21);
    // The next worker's start asks for a pass now: it recounts what the lost pass took.
    for (const step of collectWorkerStartSteps(AREAS)) await step(gateway());
    await untilPasses(passesDone(before) + 1);
    expect(await snapshotRank(db(), server.id, server.lowest)).toBe(1);
    expect(await mark(server.id)).toMatchObject({ dirty_since: null, recount_due: false });
  });

  it("marks only snapshotted servers, on the invites board too; a server that shrank loses its snapshot and its mark", async () => {
    const small = await createTestGuild(db());
    const inviteMark = (guildId: string) => db().selectFrom('rank_marks').selectAll().where('board', '=', 'invites').where('guild_id', '=', guildId).executeTakeFirst();
    // A server with no mark (no snapshot): its writes mark nothing.
    await db().insertInto('invite_members').values({ guild_id: small.id, user_id: '1', verified: 3, updated_at: new Date() }).execute();
    expect(await inviteMark(small.id)).toBeUndefined();
    // With a clean mark, a change of its invites flips it; a change of another column does not.
    await db().insertInto('rank_marks').values({ board: 'invites', guild_id: small.id }).execute();
    await db().updateTable('invite_members').set({ pending: 2 }).where('guild_id', '=', small.id).execute();
    expect((await inviteMark(small.id))!.dirty_since).toBeNull();
    await db().updateTable('invite_members').set({ verified: 4 }).where('guild_id', '=', small.id).execute();
    expect((await inviteMark(small.id))!.dirty_since).not.toBeNull();

    // The large levels server loses members below the threshold: the deletes mark it, the pass drops its snapshot.
    await db().deleteFrom('level_members').where('guild_id', '=', server.id).where('xp', '<', 100).execute();
    const before = await history();
    expect(await relayRankWakes(relayDeps())).toBe(1);
    await untilTimers(timersSet(before).length + 1);
    await bed.env.sleep(RECOUNT_BATCH_MS);
    await untilPasses(passesDone(before) + 1);
    expect(await findRankSnapshot(db(), server.id)).toBeUndefined();
    expect(await mark(server.id)).toBeUndefined();
    // The small invites server was marked but is not large: no snapshot, and no mark any more.
    expect(await inviteMark(small.id)).toBeUndefined();
  });
});
