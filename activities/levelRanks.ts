import { dropRankSnapshot, listLargeLevelGuilds, refreshRankSnapshot } from '../db/levels/ranks.js';
import { RANK_SNAPSHOT_THRESHOLD } from '../src/levels/leaderboard.js';
import type { ActivityDeps } from './deps.js';

export function createLevelRanksActivities({ db, clock }: ActivityDeps) {
  return {
    /** Recomputes the rank snapshot of every large server and drops those of servers that shrank. */
    async refreshLevelRankSnapshots(): Promise<{ refreshed: number; dropped: number }> {
      const large = new Set(await listLargeLevelGuilds(db, RANK_SNAPSHOT_THRESHOLD));
      for (const guildId of large) await refreshRankSnapshot(db, guildId, clock.now());
      const stale = await db.selectFrom('level_rank_snapshot_state').select('guild_id').execute();
      const shrunk = stale.map((r) => r.guild_id).filter((id) => !large.has(id));
      for (const guildId of shrunk) await dropRankSnapshot(db, guildId);
      return { refreshed: large.size, dropped: shrunk.length };
    },
  };
}
