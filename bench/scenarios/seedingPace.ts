import type { RecountPace } from '../../db/shared/rankRecount.js';

/** A recount while seeding: nothing is measured yet, so big chunks and no rest (the schedule's pace rests 2x each chunk). */
export const SEEDING_PACE: RecountPace = { chunkRows: 100_000, rest: async () => {} };
