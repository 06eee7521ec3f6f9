import type { Kysely } from 'kysely';
import { claimEventBatch, listUnstartedEvents, markBatchStarted } from '../../db/shared/events.js';
import type { Database } from '../../db/schema.js';
import type { OperationDeps } from '../core/temporal/operation.js';
import { operationAttributes } from '../core/temporal/searchAttributes.js';
import { startOnce } from '../core/temporal/startOnce.js';
import { webhookBatchWorkflow, webhookBatchWorkflowId, type WebhookBatchPlan } from './ids.js';

export type BatchDeps = OperationDeps<Kysely<Database>>;

/** Events per batch: one workflow carries the first attempts and bank log lines of up to this many events. */
export const MAX_BATCH_EVENTS = 100;

/**
 * Starts the batch's workflow and records the start. The workflow id is the guild and batch number, so the start after
 * the claim and the relay's cannot both run it, and a closed batch is never run again.
 */
export async function startBatch(deps: BatchDeps, batch: { batchId: number; guildId: string; events: number; plan?: WebhookBatchPlan }): Promise<void> {
  await startOnce(deps.temporal, webhookBatchWorkflow, {
    workflowId: webhookBatchWorkflowId(batch.guildId, batch.batchId),
    args: [{ batchId: batch.batchId, guildId: batch.guildId, ...(batch.plan && { plan: batch.plan }) }],
    typedSearchAttributes: operationAttributes(batch.guildId, 'webhook.batch'),
    staticSummary: `Batch ${batch.batchId}: fan-out and first webhook attempts of ${batch.events} event(s) of guild ${batch.guildId}`,
  });
  await markBatchStarted(deps.db, batch.batchId, deps.clock.now());
}

/**
 * Claims the committed events of one guild that no batch holds yet into a batch, and starts it with the plan read
 * in the claim's statement: one wait for the database between an event's commit and its first attempt fewer.
 * A batch whose plan holds nothing to send (no endpoint subscribed, no bank log line) is done at its claim: its
 * workflow would only start and end, a Temporal start and a workflow task for each such batch.
 */
export async function launchBatch(deps: BatchDeps, guildId: string, eventIds: string[]): Promise<void> {
  const claimed = await claimEventBatch(deps.db, eventIds);
  if (!claimed) return;
  const { batchId, plan } = claimed;
  if (plan && plan.endpointIds.length === 0 && plan.bankLogEvents === 0) return markBatchStarted(deps.db, batchId, deps.clock.now());
  await startBatch(deps, { batchId, guildId, events: claimed.eventIds.length, plan });
}

/**
 * One pass of the start relay: events committed more than `graceMs` ago whose batch did not start (a crash
 * or a Temporal outage after the commit) are batched, or their batch is started again.
 */
export async function relayUnstartedBatches(deps: BatchDeps, options = { graceMs: 5_000, limit: 500 }): Promise<number> {
  const events = await listUnstartedEvents(deps.db, new Date(deps.clock.now().getTime() - options.graceMs), options.limit);
  const claimedBatches = new Map<number, { guildId: string; events: number }>();
  const unclaimed = new Map<string, string[]>();
  for (const e of events) {
    if (e.batchId !== null) {
      const batch = claimedBatches.get(e.batchId) ?? { guildId: e.guildId, events: 0 };
      claimedBatches.set(e.batchId, { ...batch, events: batch.events + 1 });
    } else unclaimed.set(e.guildId, [...(unclaimed.get(e.guildId) ?? []), e.id]);
  }
  for (const [batchId, batch] of claimedBatches) await startBatch(deps, { batchId, ...batch });
  for (const [guildId, ids] of unclaimed) {
    for (let i = 0; i < ids.length; i += MAX_BATCH_EVENTS) await launchBatch(deps, guildId, ids.slice(i, i + MAX_BATCH_EVENTS));
  }
  return events.length;
}
