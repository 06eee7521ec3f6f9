import type { Kysely } from 'kysely';
import { insertEvent } from '../../db/shared/events.js';
import type { Database } from '../../db/schema.js';
import type { Logger } from '../core/logger.js';
import type { OperationDeps } from '../core/temporal/operation.js';
import { batchLauncherFor } from './batchLauncher.js';
import type { EventDataByType, EventType, OutboxEvent } from './eventTypes.js';

/**
 * Writes an event with the transaction of the change it reports (the transactional outbox), and with it
 * one delivery per webhook endpoint subscribed at that moment.
 */
export function recordEvent<T extends EventType>(
  trx: Kysely<Database>,
  event: { type: T; guildId: string; createdAt: Date; data: EventDataByType[T] },
): Promise<OutboxEvent<T>> {
  return insertEvent(trx, event) as Promise<OutboxEvent<T>>;
}

/**
 * Starts the fan-out of committed events and records that it started: they join a batch of their guild
 * (workflow `webhook-batch/<guildId>/<n>`), which makes their webhooks' first attempts and posts their bank log lines.
 * Callers run it right after their commit; the start relay covers events whose start was lost.
 */
export async function startFanouts(deps: OperationDeps<Kysely<Database>>, events: OutboxEvent[]): Promise<void> {
  if (events.length > 0) await batchLauncherFor(deps).launch(events);
}

/** For activities: a failed start is logged and left to the relay, so the activity's own work stands. */
export function startFanoutsOrLeaveToRelay(deps: OperationDeps<Kysely<Database>> & { logger: Logger }, events: OutboxEvent[]): Promise<void> {
  if (events.length === 0) return Promise.resolve();
  return startFanouts(deps, events).catch((err: unknown) => deps.logger.warn({ err }, 'fan-out start failed; the relay retries it'));
}
