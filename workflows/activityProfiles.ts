import type { ActivityOptions, LocalActivityOptions } from '@temporalio/workflow';
import { OPERATION_GAVE_UP } from '../src/core/errorCodes.js';

// The activity option profiles every workflow picks from, so a retry policy is chosen once, by name.

/**
 * The failure type of a step that gave up: a profile listing it among its non-retryable types retries an outage
 * (database, Temporal, platform unreachable) without end and any other failure ten times, after which the worker
 * fails the step with this type (process/outageRetries.ts); workflows report it as the operation's error.
 */
export const GIVE_UP_TYPE = OPERATION_GAVE_UP;

/**
 * Short database steps, as local activities: no round trip through the server per step, which is most
 * of an operation's latency (benchmark: xp-latency). An accepted operation outlasts a database outage of any
 * length: no attempt limit, backoff capped at a minute, and a backoff past 2 seconds waits as a workflow timer
 * rather than inside the worker holding the workflow task.
 */
export const DATABASE_STEP: LocalActivityOptions = {
  startToCloseTimeout: '30 seconds',
  localRetryThreshold: '2 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '1 minute', nonRetryableErrorTypes: [GIVE_UP_TYPE] },
};

/** A bookkeeping step that the run cannot go on without: the SDK's default retries, no limit. */
export const BOOKKEEPING_STEP: LocalActivityOptions = { startToCloseTimeout: '30 seconds' };

/** Effects on the platform wait out an outage rather than give up; the operation stays open meanwhile. */
export const PLATFORM_EFFECT: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
};

/** A platform effect retried for a day at most (the bank log line: idempotent by event id). */
export const DAY_LONG_PLATFORM_EFFECT: ActivityOptions = { ...PLATFORM_EFFECT, scheduleToCloseTimeout: '1 day' };

/**
 * A platform effect of a decision that already stands: about ten minutes of retries, then the record
 * shows which step failed so staff can finish it by hand.
 */
export const BOUNDED_PLATFORM_EFFECT: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 8 },
};

/** One try only: the caller's own timers are the retry schedule (webhook attempts). */
export const SINGLE_ATTEMPT: ActivityOptions = { startToCloseTimeout: '30 seconds', retry: { maximumAttempts: 1 } };

/**
 * A batch's first attempts to one endpoint: tried again after a crash, which never repeats a logged attempt
 * (src/webhooks/firstAttempts.ts); the heartbeat notices a dead worker within seconds, not at the timeout.
 */
export const BATCH_OF_ATTEMPTS: ActivityOptions = {
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '15 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
};

/** Maintenance passes run by schedules. */
export const MAINTENANCE_PASS: ActivityOptions = { startToCloseTimeout: '5 minutes', retry: { maximumAttempts: 5 } };
/**
 * The retention purge: a run stops itself at its time budget (5 minutes, src/core/retention.ts), so the
 * start-to-close only bounds a stuck one; the heartbeat notices a dead worker within a minute (a batch is one
 * statement, under the worker's statement timeout), and the retry goes on from the last heartbeat.
 */
export const RETENTION_PASS: ActivityOptions = { startToCloseTimeout: '15 minutes', heartbeatTimeout: '1 minute', retry: { maximumAttempts: 5 } };
export const LONG_MAINTENANCE_PASS: ActivityOptions = { startToCloseTimeout: '10 minutes', retry: { maximumAttempts: 3 } };

/**
 * Flow runs: an expression fails the same way every time, so it is tried a few times only for the worker's
 * sake. FLOW_EFFECT is what runs started before patch `flow-run-outlasts-outages` keep: effects retried briefly
 * under a timer around the whole run.
 */
export const FLOW_EXPRESSION: LocalActivityOptions = { startToCloseTimeout: '10 seconds', retry: { maximumAttempts: 3 } };
export const FLOW_EFFECT: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 5 },
};

/**
 * A flow's platform effects (message and role nodes) from patch `flow-run-outlasts-outages` on: an accepted run
 * outlasts an outage of any length (no attempt limit, backoff capped at a minute), while another failure gives up
 * after its attempts (GIVE_UP_TYPE) and fails the node. Each is keyed on its run and node (a message's idempotency
 * key, a role's set operation), so however many attempts it takes it is applied once. Its bank and XP nodes are
 * DATABASE_STEPs.
 */
export const FLOW_PLATFORM_EFFECT: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', nonRetryableErrorTypes: [GIVE_UP_TYPE] },
};

/**
 * A giveaway draw: checks entrants with the platform down the draw order until enough qualify (usually a few
 * look-ups, but every entrant when too few qualify: 100,000 take a while), retried until it is stored, since
 * the giveaway cannot end without it; a retry returns the stored draw.
 */
export const DRAW_STEP: ActivityOptions = {
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
};

/**
 * The every-second batch of giveaway ends: one try, since the next firing is the retry (a pass that crashed left
 * its undrawn giveaways due and its effects queued); the timeout bounds how long a dead worker holds the schedule,
 * which skips firings while a pass runs.
 */
export const EVERY_SECOND_PASS: ActivityOptions = { startToCloseTimeout: '30 seconds', retry: { maximumAttempts: 1 } };

/**
 * The same pass heartbeating after each giveaway (activities/giveawayEnds.ts): a worker that died or stopped making
 * progress mid-pass is noticed within 5 s and the next firing takes over what it left (undrawn giveaways still due,
 * effects still queued); a live pass heartbeats far more often (16 draws or effects at once, each well under a
 * second). So the start-to-close no longer has to notice a dead worker: it is long enough for a pass of thousands of
 * ends on a loaded machine, which at 30 s was cut off and overlapped by the next pass (10,000 ends, docs/performance.md).
 */
export const EVERY_SECOND_PASS_HEARTBEATING: ActivityOptions = { ...EVERY_SECOND_PASS, startToCloseTimeout: '10 minutes', heartbeatTimeout: '5 seconds' };

/**
 * A pass of the end dispatcher (workflows/giveawayEndDispatcher.ts): heartbeating as above, and retried by the server
 * (a database outage, a dead worker noticed at the heartbeat timeout) with backoff to a minute and no limit, since no
 * firing comes after it: the dispatcher sleeps until the pass returns. An outage costs one action a minute at most.
 */
export const END_DISPATCH_PASS: ActivityOptions = {
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '5 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
};
