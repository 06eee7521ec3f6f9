import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';

/**
 * The spec code of a domain refusal: a non-retryable ApplicationFailure whose type is the code (local
 * activities surface it with or without an ActivityFailure around it). Anything else is rethrown.
 */
export function refusalCode(err: unknown): string {
  const failure = err instanceof ActivityFailure ? err.cause : err;
  if (failure instanceof ApplicationFailure && failure.nonRetryable && failure.type) return failure.type;
  throw err;
}
