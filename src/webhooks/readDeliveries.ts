import type { Kysely } from 'kysely';
import { findDeliveryDetail, searchDeliveries, type DeliveryDetail, type DeliveryListRow, type DeliverySearch, type DeliverySummary } from '../../db/webhooks/deliveryPages.js';
import type { Database } from '../../db/schema.js';
import { webhookBatchWorkflowId } from '../events/ids.js';
import { MAX_ATTEMPTS, webhookDeliveryWorkflowId } from './ids.js';

export type { DeliveryDetail, DeliveryListRow, DeliverySearch, DeliverySummary };

// RETRY_DELAYS (./ids.ts, the spec's schedule) in milliseconds.
const DELAY_MS = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 86_400_000] as const;

/** One page of the guild's deliveries, of one endpoint or all, newest first, filtered (the console's lists). */
export const readDeliveryPage = searchDeliveries;

export interface DeliveryView extends DeliveryDetail {
  /** When the retry schedule makes the next attempt; null when none is due (finished, or waiting on a retry request). */
  nextAttemptAt: Date | null;
  /** The runs in Temporal that carry it: the first attempt's batch, and the retry run once an attempt failed. */
  workflowIds: string[];
}

/** A delivery of the guild's endpoint as the console shows it; undefined for one of another guild. */
export async function readDelivery(db: Kysely<Database>, guildId: string, deliveryId: number): Promise<DeliveryView | undefined> {
  const d = await findDeliveryDetail(db, guildId, deliveryId);
  if (!d) return undefined;
  const last = d.attemptLog.at(-1);
  const failedLast = last !== undefined && (last.statusCode === null || last.statusCode >= 300);
  // Attempt numbers run on across an operator's retry; the schedule restarts with each round of 7.
  const inRound = last ? ((last.attempt - 1) % MAX_ATTEMPTS) + 1 : 0;
  const nextAttemptAt =
    d.status === 'pending' && failedLast && inRound < MAX_ATTEMPTS ? new Date(last.attemptedAt.getTime() + DELAY_MS[inRound - 1]!) : null;
  const workflowIds = [
    ...(d.batchId ? [webhookBatchWorkflowId(guildId, Number(d.batchId))] : []),
    ...(d.attemptLog.some((a) => a.statusCode === null || a.statusCode >= 300) || d.retryRequestedAt ? [webhookDeliveryWorkflowId(d.endpointId, d.eventId)] : []),
  ];
  return { ...d, nextAttemptAt, workflowIds };
}
