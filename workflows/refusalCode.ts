import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import type { RefusalCode } from '../src/core/errorCodes.js';

/**
 * The code of a refusal: a non-retryable ApplicationFailure whose type is the code (local activities
 * surface it with or without an ActivityFailure around it). Anything else is rethrown.
 */
export function refusalCode(err: unknown): RefusalCode {
  const failure = err instanceof ActivityFailure ? err.cause : err;
  if (failure instanceof ApplicationFailure && failure.nonRetryable && failure.type) return failure.type as RefusalCode;
  throw err;
}

/** The type of an activity's failure (`ERROR` when it has none), recorded as a failed action; anything else is rethrown. */
export function activityFailureType(err: unknown): string {
  if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure) return err.cause.type ?? 'ERROR';
  throw err;
}
