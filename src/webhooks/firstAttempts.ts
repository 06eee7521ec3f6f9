import type { Kysely } from 'kysely';
import type { Dispatcher } from 'undici';
import {
  cancelFirstAttempts,
  claimFirstAttempts,
  countSucceededFirstAttempts,
  deliveriesAwaitingFirstAttempt,
  failedFirstAttempts,
  findAttemptEndpoint,
  INTERRUPTED_ATTEMPT,
  recordFirstAttempts,
} from '../../db/webhooks/batches.js';
import type { Database } from '../../db/schema.js';
import type { AttemptRecord } from '../../db/webhooks/webhooks.js';
import type { Clock } from '../core/clock.js';
import { inParallel } from '../core/inParallel.js';
import { noteDelivered } from '../core/metrics.js';
import type { EndpointBatchOutcome } from './ids.js';
import { noteFailingStreak } from './failingStreak.js';
import { groupedWrites } from './groupedWrites.js';
import { sendAttempt, type AttemptResult } from './sendAttempt.js';
import { signingSecrets } from './signingSecrets.js';

/**
 * Attempts in flight to one endpoint from one batch: enough to drain a batch of fast answers at once, few
 * enough that a slow receiver holds only its own share (each endpoint of a batch runs in its own activity).
 */
export const FIRST_ATTEMPTS_PER_ENDPOINT = 16;

/**
 * One worker's claims and log lines of first attempts. Every endpoint's attempts of every batch the worker
 * runs share it, so the claims (and the log lines) asked for together go to PostgreSQL in one statement:
 * the statements per delivery fall as the load grows, and each claim still precedes its dial.
 */
export interface FirstAttemptLog {
  claim(claim: { deliveryId: number; at: Date }): Promise<boolean>;
  record(attempt: AttemptRecord & { ok: boolean }): Promise<void>;
}

export function createFirstAttemptLog(db: Kysely<Database>): FirstAttemptLog {
  return {
    claim: groupedWrites((claims) => claimFirstAttempts(db, claims)),
    record: groupedWrites(async (attempts) => {
      await recordFirstAttempts(db, attempts);
      return attempts.map(() => undefined);
    }),
  };
}

export interface FirstAttemptsDeps {
  db: Kysely<Database>;
  clock: Clock;
  dispatcher: Dispatcher;
  log: FirstAttemptLog;
}

export interface FirstAttemptsRun {
  batchId: number;
  endpointId: number;
  /** The batch workflow's time when it asked (ms): attempt times are logged on the clock of the retry timers. */
  startedAt: number;
  /** Aborted when the worker stops: nothing more is dialled or logged, the next try takes over. */
  signal: AbortSignal;
  heartbeat(): void;
}

/**
 * The first attempt of each of the batch's deliveries to one endpoint, at most 16 at a time. Safe to run
 * again after a crash: a logged attempt is not repeated, and an attempt claimed but never logged (the worker
 * died while dialling) is logged as a failed attempt 1, so its retry run makes attempt 2: no delivery is
 * skipped and none is dialled twice under one attempt number.
 */
export async function attemptFirstDeliveries(deps: FirstAttemptsDeps, run: FirstAttemptsRun): Promise<EndpointBatchOutcome> {
  const realStart = performance.now();
  const now = () => new Date(run.startedAt + Math.round(performance.now() - realStart));
  // Read together: one wait for the pool instead of two on the way to the first dial.
  const [endpoint, waiting] = await Promise.all([
    findAttemptEndpoint(deps.db, run.endpointId),
    deliveriesAwaitingFirstAttempt(deps.db, run.batchId, run.endpointId),
  ]);
  if (!endpoint?.enabled) {
    // Disabled or removed after the events committed: their deliveries stop (docs/webhooks.md).
    return { succeeded: 0, cancelled: await cancelFirstAttempts(deps.db, run.batchId, run.endpointId, now()), failed: [] };
  }
  const interrupted = waiting.filter((d) => d.firstDialledAt !== null).map((cut) => {
    const attemptedAt = cut.firstDialledAt!;
    const durationMs = Math.max(0, now().getTime() - attemptedAt.getTime());
    return { deliveryId: cut.id, attempt: 1, attemptedAt, ok: false, statusCode: null, error: INTERRUPTED_ATTEMPT, responseExcerpt: null, durationMs };
  });
  if (interrupted.length > 0) await recordFirstAttempts(deps.db, interrupted);
  const outcomes: Array<{ ok: boolean; at: Date }> = [];
  // A lane dials its next delivery while the last one's log line is written; all are written before the
  // outcome is counted (a failed write fails the step, whose next try logs the attempt as interrupted).
  const logged: Array<Promise<void>> = [];
  const heartbeats = setInterval(run.heartbeat, 1_000);
  try {
    await inParallel(
      waiting.filter((d) => d.firstDialledAt === null),
      FIRST_ATTEMPTS_PER_ENDPOINT,
      async (delivery) => {
        // Claimed one by one, right before dialling: a delivery the worker never reached stays unclaimed.
        if (run.signal.aborted) return;
        const attemptedAt = now();
        if (!(await deps.log.claim({ deliveryId: delivery.id, at: attemptedAt }))) return;
        // The activity's clock decides whether a rotation's overlap still lasts, as it dates the signature.
        const signedAt = deps.clock.now();
        const target = { url: endpoint.url, secrets: signingSecrets(endpoint, signedAt), eventId: delivery.eventId, body: delivery.body };
        const result: AttemptResult = await sendAttempt(deps.dispatcher, target, Math.floor(signedAt.getTime() / 1000), run.signal);
        if (run.signal.aborted) return;
        const line = deps.log.record({ deliveryId: delivery.id, attempt: 1, attemptedAt, ...result });
        line.catch(() => {}); // awaited below, with the others
        logged.push(line);
        if (result.ok) noteDelivered(delivery.committedAt, attemptedAt, result.durationMs);
        outcomes.push({ ok: result.ok, at: attemptedAt });
      },
    );
    await Promise.all(logged);
  } finally {
    clearInterval(heartbeats);
  }
  run.signal.throwIfAborted();
  await noteFailingStreak(deps.db, run.endpointId, outcomes);
  return {
    succeeded: await countSucceededFirstAttempts(deps.db, run.batchId, run.endpointId),
    cancelled: 0,
    failed: await failedFirstAttempts(deps.db, run.batchId, run.endpointId),
  };
}
