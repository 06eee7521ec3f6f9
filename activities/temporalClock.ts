import { Context } from '@temporalio/activity';
import type { Clock } from '../src/core/clock.js';

/**
 * Converts the app's times to Temporal's clock (a workflow's `Date.now()`), for a time a workflow plans on
 * (src/core/temporal/dispatcherProtocol.ts); call it at the activity's start. The two clocks may differ (hosts drift;
 * tests run the app under faketime), so the offset is measured: Temporal's time is taken to be when this attempt was
 * scheduled, which came before the call, so a converted time is early by the wait to start, never late.
 */
export function temporalClockOf(clock: Clock): (at: Date) => number {
  const aheadMs = clock.now().getTime() - Context.current().info.currentAttemptScheduledTimestampMs;
  return (at) => at.getTime() - aheadMs;
}
