import type { Clock } from '../../../src/core/clock.js';
import { interactionsTooOld } from '../botMetrics.js';
import type { DispatchHandler } from '../handler.js';

/** Discord's epoch: a snowflake's top 42 bits are milliseconds since it. */
const DISCORD_EPOCH_MS = 1_420_070_400_000n;

/**
 * The oldest an interaction may be when its work starts. Discord wants the first answer within 3 s of the
 * interaction's creation; past 2.5 s the callback, its trip included, may no longer arrive in time.
 */
export const ACT_WITHIN_MS = 2_500;

/** How old an interaction is now: its id is a snowflake, stamped when Discord created it. */
export function interactionAgeMs(id: string, clock: Clock): number {
  return clock.now().getTime() - Number((BigInt(id) >> 22n) + DISCORD_EPOCH_MS);
}

/**
 * INTERACTION_CREATE's handling, refused when the interaction is already too old to be answered (the bot was
 * behind, or a retry after an outage): acting on it would record an entry, a ticket or an application the member
 * was told had failed ("This interaction failed"). It is logged and counted, and nothing is done. Checked at each
 * attempt, so a retry after a database outage is refused too.
 */
export function withinInteractionWindow(handler: DispatchHandler): DispatchHandler {
  return async (data, deps) => {
    const id = (data as { id?: unknown }).id;
    if (typeof id === 'string' && /^\d{1,20}$/.test(id)) {
      const ageMs = interactionAgeMs(id, deps.clock);
      if (ageMs > ACT_WITHIN_MS) {
        interactionsTooOld.inc();
        deps.logger.warn({ interactionId: id, ageMs }, 'interaction not acted on: too old to be answered within Discord\'s 3 s');
        return;
      }
    }
    await handler(data, deps);
  };
}
