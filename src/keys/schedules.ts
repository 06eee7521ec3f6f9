/**
 * The hourly schedule that ran the retention purge until the purge dispatcher (workflows/retentionPurgeDispatcher.ts)
 * took over, sleeping until a record comes due: about 4 Temporal actions an hour with nothing due. Retired: each
 * worker's start deletes it (ensureSchedules); its workflow `purgeExpiredRecords` stays registered for the runs it
 * started before an upgrade deleted it.
 */
export const RETIRED_PURGE_SCHEDULE_ID = 'maintenance/purge-expired-records';
