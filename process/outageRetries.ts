import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { isDependencyUnavailable } from '../src/core/dependencyErrors.js';
import { PlatformUnavailableError } from '../src/core/platform.js';
import { GIVE_UP_TYPE } from '../workflows/activityProfiles.js';

/** Attempts after which a failure that is not an outage ends a step whose profile opts in (DATABASE_STEP). */
export const ATTEMPTS_BEFORE_GIVING_UP = 10;

/**
 * Tells an outage from a failure, which a retry policy alone cannot: an accepted operation must outlast a
 * database or platform outage of any length (its retry policy has no attempt limit), yet a step that fails for
 * another reason (a bug, a constraint) must end the run in time. A profile that lists GIVE_UP_TYPE among its
 * non-retryable types gets that: outage errors pass through and are retried until the outage ends; another
 * failure on the tenth attempt becomes a non-retryable GIVE_UP_TYPE failure, which the workflow reports as the
 * operation's error. Refusals (already non-retryable) and cancellations pass through untouched.
 */
export const outageRetries: ActivityInterceptorsFactory = () => ({
  inbound: {
    async execute(input, next) {
      try {
        return await next(input);
      } catch (err) {
        throw givenUp(err) ?? waitedOut(err) ?? err;
      }
    },
  },
});

function givenUp(err: unknown): ApplicationFailure | undefined {
  if (err instanceof CancelledFailure || (err instanceof ApplicationFailure && err.nonRetryable)) return undefined;
  if (isDependencyUnavailable(err)) return undefined;
  const { attempt, retryPolicy } = Context.current().info;
  if (!retryPolicy?.nonRetryableErrorTypes?.includes(GIVE_UP_TYPE) || attempt < ATTEMPTS_BEFORE_GIVING_UP) return undefined;
  const message = err instanceof Error ? err.message : String(err);
  return ApplicationFailure.create({ type: GIVE_UP_TYPE, nonRetryable: true, message: `gave up after ${attempt} attempts: ${message}`, cause: err instanceof Error ? err : undefined });
}

/**
 * A platform outage that named its end (the fleet's stop after a ban-like 429, a long rate limit): the next attempt
 * comes when it has passed, not on the policy's backoff, so a worker never retries into a ban. Same type, still retried.
 */
function waitedOut(err: unknown): ApplicationFailure | undefined {
  if (!(err instanceof PlatformUnavailableError) || err.retryAfterSeconds === undefined) return undefined;
  return ApplicationFailure.create({ type: err.name, message: err.message, nextRetryDelay: err.retryAfterSeconds * 1000, cause: err });
}
