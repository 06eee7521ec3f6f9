import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { isDependencyUnavailable } from '../src/core/dependencyErrors.js';
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
        throw givenUp(err) ?? err;
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
