/**
 * The every-second schedule that ran the batch of ends until the end dispatcher (workflows/giveawayEndDispatcher.ts)
 * took over: about 10 million Temporal Cloud actions a month with nothing due. Retired: each worker's start deletes it
 * (ensureSchedules), so an upgraded deployment stops paying for it.
 */
export const RETIRED_GIVEAWAY_ENDS_SCHEDULE_ID = 'giveaways/ends';
