import { WorkflowFailedError } from '@temporalio/client';
import { ActivityFailure, TimeoutFailure } from '@temporalio/common';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listPlatformMessages } from '../../db/platform/messages.js';
import { listPlatformDirectMessages } from '../../db/platform/moderation.js';
import type { Clock } from '../../src/core/clock.js';
import type { Platform } from '../../src/core/platform.js';
import { relayGiveawayCancels, relayGiveawayCloses } from '../../src/giveaways/cancelRelay.js';
import { drawWinners } from '../../src/giveaways/drawRules.js';
import { giveawayEndsWorkflow, giveawayWorkflowId, REROLL_WINDOW_MS, type EndBatchResult } from '../../src/giveaways/ids.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { giveawayRequests, type GiveawayGuild } from '../api/giveaways/giveawayBed.js';
import { eventually } from '../harness/eventually.js';
import { temporalServerNow } from '../harness/temporal.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';

// Giveaway ends through the batch's pass (`endDueGiveaways`), on the dev server: the test's one clock (the api's, the
// worker's and the helpers') is moved past a giveaway's endsAt, then the pass is run in the retired schedule's
// workflow (workflows/giveawayEnds.ts), one pass per call. The giveaway's own run keeps no timer. Each test opens its
// giveaways on the clock at Temporal's time (the run's start timer is on Temporal's; faketime moves the host's clock
// only), then moves it past their end. They last an hour, so the end dispatcher's own timer (on Temporal's time,
// test/workflows/giveawayEndDispatcher.test.ts) does not fire while the file runs.
let serverAheadMs = 0;
let offsetMs = 0;
const clock: Clock = { now: () => new Date(Date.now() + serverAheadMs + offsetMs) };
const passEnd = () => void (offsetMs += 3_601_000);
beforeEach(() => void (offsetMs = 0));

// The local platform, with an outage the test switches on: member look-ups of one user, or message edits; or edits
// that hang until the test fails them (a worker that stopped mid-pass: no progress, so no heartbeat).
const outage: { memberId?: string; edits: boolean; hangEdits: boolean } = { edits: false, hangEdits: false };
const hungEdits: Array<() => void> = [];
let local: Platform | undefined;
const platform = new Proxy({} as Platform, {
  get: (_target, name: keyof Platform | 'then') =>
    name === 'then' ? undefined : async (...args: unknown[]) => {
      local ??= createLocalPlatform(db());
      if ((name === 'getMember' && args[1] === outage.memberId) || (name === 'editMessage' && outage.edits)) throw new Error('platform unreachable');
      if (name === 'editMessage' && outage.hangEdits) await new Promise<void>((_, reject) => hungEdits.push(() => reject(new Error('worker gone'))));
      return (local[name] as (...a: unknown[]) => Promise<unknown>)(...args);
    },
});

const { db, app, gateway } = useWorkflowTestBed({ worker: { platform, clock }, app: { clock } });
beforeAll(async () => void (serverAheadMs = (await temporalServerNow(gateway)).getTime() - Date.now()));
const { setup, start, get, end, reroll, enter, cancel } = giveawayRequests(db, app, clock);
afterAll(() => {
  outage.edits = false;
  // The stopped pass's edits fail only now, so that the worker can shut down.
  for (const fail of hungEdits.splice(0)) fail();
});

let passes = 0;
const runBatch = () =>
  gateway.client.workflow.execute<() => Promise<EndBatchResult>>(giveawayEndsWorkflow.name, { taskQueue: gateway.taskQueue, workflowId: `giveaways/ends/test-${++passes}` });

async function open(g: GiveawayGuild, members: string[], body: Record<string, unknown> = {}) {
  const id = (await start(g, { durationSeconds: 3600, ...body })).body.id as number;
  await eventually(() => get(g, id), (r) => r.body?.status === 'active');
  for (const m of members) await enter(g, id, m);
  return id;
}

const endedEvents = (g: GiveawayGuild) => db().selectFrom('events').select('data').where('guild_id', '=', g.id).where('type', '=', 'giveaways.ended').execute();
const drawRows = (g: GiveawayGuild, id: number) => db().selectFrom('giveaway_draws').selectAll().where('guild_id', '=', g.id).where('giveaway_id', '=', id).execute();
const actionsOf = async (g: GiveawayGuild, id: number) =>
  (await get(g, id)).body.queuedActions.map((a: { type: string; status: string; drawNumber: number | null }) => `${a.type}:${a.drawNumber}:${a.status}`).sort();
const messages = async (g: GiveawayGuild) => (await listPlatformMessages(db(), g.id, g.channelId)).map((m) => m.content);

describe('giveaway ends through the batch (dev server)', () => {
  it('draws at endsAt with its seed, audits, emits giveaways.ended once, edits, announces and DMs; a reroll and the close reach the run', async () => {
    const g = await setup();
    const members = [await g.addMember(), await g.addMember(), await g.addMember()];
    const id = await open(g, members, { winners: 2, dmWinners: true });
    // Not due yet: the batch leaves it.
    await runBatch();
    expect((await get(g, id)).body.status).toBe('active');

    passEnd();
    const pass = await runBatch();
    expect(pass.drawn).toBeGreaterThanOrEqual(1);
    const { seed } = await db().selectFrom('giveaways').select('seed').where('guild_id', '=', g.id).where('id', '=', id).executeTakeFirstOrThrow();
    const winners = drawWinners(seed, 1, members.map((userId) => ({ userId, tickets: 1 })), 2);
    const after = (await get(g, id)).body;
    expect(after).toMatchObject({ status: 'ended', winnerIds: winners });
    expect(after.draws).toEqual([expect.objectContaining({ drawNumber: 1, kind: 'end', winnerIds: winners, seed, algorithm: expect.any(String) })]);
    expect(await actionsOf(g, id)).toEqual(['announce:1:done', 'dm:1:done', 'dm:1:done', 'edit:1:done', 'post:null:done']);
    expect(await messages(g)).toEqual([expect.stringContaining('Winners: '), expect.stringContaining('Congratulations')]);
    for (const w of winners) expect(await listPlatformDirectMessages(db(), g.id, w)).toHaveLength(1);
    const audit = await db().selectFrom('audit_log').select(['action', 'actor_type']).where('guild_id', '=', g.id).where('action', '=', 'giveaways.end').execute();
    expect(audit).toEqual([{ action: 'giveaways.end', actor_type: 'system' }]);
    // Another pass draws nothing again and emits nothing again.
    await runBatch();
    expect(await drawRows(g, id)).toHaveLength(1);
    expect((await endedEvents(g)).map((e) => e.data)).toEqual([expect.objectContaining({ giveawayId: id, winnerIds: winners })]);

    // The run was not told of the end and keeps no timer; a reroll finds the end in the database.
    const handle = gateway.client.workflow.getHandle(giveawayWorkflowId(g.id, id));
    expect((await handle.fetchHistory()).events!.filter((e) => e.timerStartedEventAttributes)).toEqual([]);
    const rerolled = await reroll(g, id, { replaceUserIds: [winners[0]] });
    expect(rerolled.status).toBe(200);
    expect(rerolled.body.draw).toMatchObject({ drawNumber: 2, kind: 'reroll', replacedUserIds: [winners[0]] });
    await eventually(() => actionsOf(g, id), (a) => a.filter((x: string) => x.includes(':2:')).every((x: string) => x.endsWith('done')) && a.some((x: string) => x.includes(':2:')));
    expect(await endedEvents(g)).toHaveLength(1);

    // Past the reroll window the close relay tells the run, which completes with its draws.
    const later = { now: () => new Date(clock.now().getTime() + REROLL_WINDOW_MS + 60_000) };
    expect(await relayGiveawayCloses({ db: db(), temporal: gateway, clock: later })).toBeGreaterThanOrEqual(1);
    expect(await handle.result()).toEqual({ status: 'ended', draws: 2 });
    expect(await relayGiveawayCloses({ db: db(), temporal: gateway, clock: later })).toBe(0);
  });

  it('a manual end racing the batch: one draw, one event, the end answered with that draw or 409 GIVEAWAY_NOT_ACTIVE', async () => {
    const g = await setup();
    const members = [await g.addMember(), await g.addMember()];
    const id = await open(g, members);
    passEnd();
    const [ended] = await Promise.all([end(g, id), runBatch()]);
    const draws = await drawRows(g, id);
    expect(draws).toHaveLength(1);
    if (ended.status === 200) expect(ended.body.draw).toMatchObject({ drawNumber: 1, winnerIds: draws[0]!.winner_ids });
    else expect(ended.body).toMatchObject({ error: 'GIVEAWAY_NOT_ACTIVE', status: 'ended' });
    await runBatch();
    expect(await eventually(() => actionsOf(g, id), (a) => !a.some((x: string) => x.endsWith('queued')))).toEqual(['announce:1:done', 'dm:1:done', 'edit:1:done', 'post:null:done']);
    expect(await endedEvents(g)).toHaveLength(1);
    expect(await messages(g)).toEqual([expect.stringContaining('Winners: '), expect.stringContaining('Congratulations')]);
    const again = await end(g, id);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'GIVEAWAY_NOT_ACTIVE', status: 'ended' });
  });

  it('a pass that starts shortly before an end waits for it and draws it, rather than leaving it to another pass', async () => {
    const g = await setup();
    const id = await open(g, []);
    // The clock half a second before the end (the same clock the pass reads, moving on in real time).
    const endsAt = Date.parse((await get(g, id)).body.endsAt as string);
    offsetMs = endsAt - Date.now() - serverAheadMs - 500;
    const startedBefore = clock.now().getTime() < endsAt;
    expect(await runBatch()).toMatchObject({ drawn: 1 });
    expect(startedBefore).toBe(true);
    expect((await get(g, id)).body.status).toBe('ended');
  });

  it('a giveaway cancelled before its end is never drawn; its run shows the cancel', async () => {
    const g = await setup();
    const id = await open(g, [await g.addMember()]);
    await cancel(g, id);
    passEnd();
    await runBatch();
    expect(await drawRows(g, id)).toEqual([]);
    expect(await relayGiveawayCancels({ db: db(), temporal: gateway, clock })).toBeGreaterThanOrEqual(1);
    expect(await gateway.client.workflow.getHandle(giveawayWorkflowId(g.id, id)).result()).toEqual({ status: 'cancelled', draws: 0 });
    expect((await get(g, id)).body).toMatchObject({ status: 'cancelled', winnerIds: [] });
    expect(await endedEvents(g)).toEqual([]);
  });

  it('a pass that fails mid-way (a draw, then an edit, refused by an outage) leaves them to the next pass: no draw or event twice', async () => {
    const g = await setup();
    const [a, b] = [await g.addMember(), await g.addMember()];
    const first = await open(g, [a]);
    const second = await open(g, [b]);
    passEnd();
    outage.memberId = b;
    outage.edits = true;
    // What the end dispatcher plans from: something due is left (the second draw, the first edit), so it comes back soon.
    expect(await runBatch()).toMatchObject({ drawn: 1, effects: 3, applied: 2, left: true });
    expect((await get(g, first)).body.status).toBe('ended');
    expect((await get(g, second)).body).toMatchObject({ status: 'active', draws: [] });
    expect(await actionsOf(g, first)).toEqual(['announce:1:done', 'dm:1:done', 'edit:1:queued', 'post:null:done']);

    outage.memberId = undefined;
    outage.edits = false;
    // Nothing left and no giveaway open: the dispatcher sleeps with no timer.
    expect(await runBatch()).toMatchObject({ drawn: 1, left: false, nextEndInMs: null });
    for (const [id, winner] of [[first, a], [second, b]] as const) {
      expect((await get(g, id)).body).toMatchObject({ status: 'ended', winnerIds: [winner] });
      expect(await drawRows(g, id)).toHaveLength(1);
      expect(await actionsOf(g, id)).toEqual(['announce:1:done', 'dm:1:done', 'edit:1:done', 'post:null:done']);
    }
    expect((await endedEvents(g)).map((e) => (e.data as { giveawayId: number }).giveawayId).sort()).toEqual([first, second].sort());
    // Each announcement once, though the first giveaway's effects ran over two passes.
    expect((await messages(g)).filter((m) => m.includes('Congratulations'))).toHaveLength(2);
  });

  it('a pass that stops mid-way (edits hanging: no progress, no heartbeat) times out on its heartbeat; the next pass resumes it', async () => {
    const g = await setup();
    const [a, b] = [await g.addMember(), await g.addMember()];
    const ids = [await open(g, [a]), await open(g, [b])];
    passEnd();
    outage.hangEdits = true;
    const stopped = await runBatch().catch((err: unknown) => err);
    // The heartbeat timeout (5 s), not the 30 s start-to-close, freed the schedule for the next firing.
    expect(stopped).toBeInstanceOf(WorkflowFailedError);
    const activity = (stopped as WorkflowFailedError).cause;
    expect(activity).toBeInstanceOf(ActivityFailure);
    expect((activity as ActivityFailure).cause).toBeInstanceOf(TimeoutFailure);
    expect(((activity as ActivityFailure).cause as TimeoutFailure).timeoutType).toBe('HEARTBEAT');
    // It drew both before it stopped; their effects wait, queued.
    for (const id of ids) {
      expect((await get(g, id)).body.status).toBe('ended');
      expect(await actionsOf(g, id)).toEqual(['announce:1:queued', 'dm:1:queued', 'edit:1:queued', 'post:null:done']);
    }

    outage.hangEdits = false;
    const next = await runBatch();
    // The stopped pass's calls never return, as a dead worker's: the next pass applies all it left.
    expect(next).toMatchObject({ drawn: 0, effects: 6, applied: 6, left: false });
    for (const [id, winner] of [[ids[0]!, a], [ids[1]!, b]] as const) {
      expect((await get(g, id)).body).toMatchObject({ status: 'ended', winnerIds: [winner] });
      expect(await drawRows(g, id)).toHaveLength(1);
      expect(await actionsOf(g, id)).toEqual(['announce:1:done', 'dm:1:done', 'edit:1:done', 'post:null:done']);
    }
    expect(await endedEvents(g)).toHaveLength(2);
    expect((await messages(g)).filter((m) => m.includes('Congratulations'))).toHaveLength(2);
  });
});
