/**
 * The every-minute schedule that recounted the level rank snapshots of every large server until the recount
 * dispatcher (workflows/rankRecountDispatcher.ts) took over, recounting only servers that changed: about 240 Temporal
 * actions an hour with nothing changed. Retired: each worker's start deletes it (ensureSchedules).
 */
export const RETIRED_LEVEL_RANKS_SCHEDULE_ID = 'maintenance/refresh-level-ranks';
