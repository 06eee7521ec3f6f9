import type { RankRecountPass } from '../src/ranks/ids.js';
import { recountDirtyRanks } from '../src/ranks/recountDirty.js';
import type { ActivityDeps } from './deps.js';

export type RanksActivities = ReturnType<typeof createRanksActivities>;

export function createRanksActivities({ db, clock }: ActivityDeps) {
  return {
    /** The recount dispatcher's pass: the rank snapshots of the servers that changed since the last one. */
    recountDirtyRanks: (): Promise<RankRecountPass> => recountDirtyRanks(db, clock),
  };
}
