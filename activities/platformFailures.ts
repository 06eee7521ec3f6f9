import { ApplicationFailure } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { PlatformConfigurationError, PlatformRefusedError } from '../src/core/platform.js';

/**
 * A platform refusal as the activity's failure: refused effects (a missing permission) and refused credentials
 * are never retried, and their code is the failure's type, which the workflows record (`failedActions`,
 * `ModAction.error`). Anything else (an outage included) is left to the retry policy.
 */
export function platformFailure(err: unknown): unknown {
  if (err instanceof PlatformRefusedError || err instanceof PlatformConfigurationError) {
    return ApplicationFailure.create({ message: err.message, type: err.code, nonRetryable: true, cause: err });
  }
  return err;
}

/** The worker's activity interceptor that applies platformFailure to every activity's failure. */
export const platformFailures: ActivityInterceptorsFactory = () => ({
  inbound: { execute: (input, next) => next(input).catch((err: unknown) => Promise.reject(platformFailure(err))) },
});
