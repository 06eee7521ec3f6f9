/**
 * The every-minute schedule that recounted the invite rank snapshots of large servers until the recount dispatcher
 * (workflows/rankRecountDispatcher.ts) took over: about 240 Temporal actions an hour with nothing changed. Retired:
 * each worker's start deletes it (ensureSchedules).
 */
export const RETIRED_INVITE_RANKS_SCHEDULE_ID = 'maintenance/refresh-invite-ranks';
