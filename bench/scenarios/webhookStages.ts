import { tsToMs } from '@temporalio/common/lib/time.js';
import { sql } from 'kysely';
import { webhookBatchWorkflowId } from '../../src/events/ids.js';
import { latencySummary, type LatencySummary } from '../latency.js';
import { BENCH_GUILD_ID } from '../seed.js';
import type { ScenarioContext } from './context.js';

/**
 * Where a delivered event's time went, per stage (wall clock in ms; the server's event times are on the same
 * machine): the event's time (the api handler's clock as the transaction began) to the answer, which the
 * scenario's latency does not count; the answer to its batch workflow's start (the launcher); the start to the
 * first workflow task; that task (with the plan step, a local activity, when the launcher gave the run no plan)
 * to the endpoint's attempt activity being scheduled; its wait for a worker slot; its start to the receiver.
 * With the batches' sizes and their bank log posts' time and tries.
 */
export interface WebhookStages {
  batches: number;
  eventsPerBatch: LatencySummary;
  eventToAnswer: LatencySummary;
  answerToStart: LatencySummary;
  startToFirstTask: LatencySummary;
  firstTaskToScheduled: LatencySummary;
  scheduledToStarted: LatencySummary;
  startedToReceived: LatencySummary;
  bankLogPostMs: LatencySummary;
  bankLogTries: LatencySummary;
}

interface BatchTimes {
  started: number;
  firstTask: number;
  attemptScheduled: number;
  attemptStarted: number;
  bankLogMs: number | undefined;
  bankLogTries: number | undefined;
}

/** The times of one batch run from its history; it has one endpoint (the scenario's receiver). */
async function batchTimes(ctx: ScenarioContext, batchId: number): Promise<BatchTimes> {
  const history = await ctx.temporal.client.workflow.getHandle(webhookBatchWorkflowId(BENCH_GUILD_ID, batchId)).fetchHistory();
  const events = history.events ?? [];
  const at = (e: (typeof events)[number]) => tsToMs(e.eventTime);
  const scheduled = new Map<string, { name: string; at: number }>();
  const times: Partial<BatchTimes> = { started: at(events[0]!) };
  for (const e of events) {
    if (e.workflowTaskStartedEventAttributes && times.firstTask === undefined) times.firstTask = at(e);
    const s = e.activityTaskScheduledEventAttributes;
    if (s) scheduled.set(String(e.eventId), { name: s.activityType?.name ?? '', at: at(e) });
    const started = e.activityTaskStartedEventAttributes;
    const activity = started && scheduled.get(String(started.scheduledEventId));
    if (activity?.name === 'attemptBatchDeliveries') {
      times.attemptScheduled = activity.at;
      times.attemptStarted = at(e);
    }
    if (activity?.name === 'postBankLogs') times.bankLogTries = started!.attempt ?? 1;
    const completed = e.activityTaskCompletedEventAttributes;
    const done = completed && scheduled.get(String(completed.scheduledEventId));
    if (done?.name === 'postBankLogs') times.bankLogMs = at(e) - done.at;
  }
  return times as BatchTimes;
}

/** The stages of the transactions answered at `answers` (epoch ms) and received at `arrivals` (epoch ms). */
export async function webhookStages(ctx: ScenarioContext, answers: Map<string, number>, arrivals: Map<string, number>): Promise<WebhookStages> {
  const rows = await ctx.db
    .selectFrom('events')
    .select(['batch_id', 'created_at', sql<string>`data->>'transactionId'`.as('transactionId')])
    .where('guild_id', '=', BENCH_GUILD_ID)
    .where(sql<string>`data->>'transactionId'`, 'in', [...answers.keys()])
    .execute();
  const batchIds = [...new Set(rows.map((r) => Number(r.batch_id)))];
  const batches = new Map<number, BatchTimes>();
  for (const batchId of batchIds) batches.set(batchId, await batchTimes(ctx, batchId));
  const delivered = rows.filter((r) => arrivals.has(r.transactionId));
  const per = (f: (answeredAt: number, b: BatchTimes, receivedAt: number) => number) =>
    latencySummary(delivered.map((r) => f(answers.get(r.transactionId)!, batches.get(Number(r.batch_id))!, arrivals.get(r.transactionId)!)));
  const all = [...batches.values()];
  return {
    batches: batchIds.length,
    eventsPerBatch: latencySummary(batchIds.map((id) => rows.filter((r) => Number(r.batch_id) === id).length)),
    eventToAnswer: latencySummary(delivered.map((r) => answers.get(r.transactionId)! - r.created_at.getTime())),
    answerToStart: per((answered, b) => b.started - answered),
    startToFirstTask: per((_, b) => b.firstTask - b.started),
    firstTaskToScheduled: per((_, b) => b.attemptScheduled - b.firstTask),
    scheduledToStarted: per((_, b) => b.attemptStarted - b.attemptScheduled),
    startedToReceived: per((_, b, received) => received - b.attemptStarted),
    bankLogPostMs: latencySummary(all.flatMap((b) => (b.bankLogMs === undefined ? [] : [b.bankLogMs]))),
    bankLogTries: latencySummary(all.flatMap((b) => (b.bankLogTries === undefined ? [] : [b.bankLogTries]))),
  };
}
