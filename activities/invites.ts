import { findInviteCounts } from '../db/invites/members.js';
import { listGrantedMilestoneRoles, listInviteMilestones, recordMilestoneGrant } from '../db/invites/milestones.js';
import { INVITE_RANKS, refreshInviteRankSnapshot } from '../db/invites/ranks.js';
import { refreshLargeBoards } from '../db/shared/rankBoards.js';
import type { DueMilestone } from '../src/invites/ids.js';
import { INVITE_RANK_SNAPSHOT_THRESHOLD } from '../src/invites/leaderboard.js';
import { dueMilestones } from '../src/invites/milestoneRules.js';
import type { ActivityDeps } from './deps.js';

export type InvitesActivities = ReturnType<typeof createInvitesActivities>;

export function createInvitesActivities({ db, platform, clock }: ActivityDeps) {
  return {
    /** The milestones the member's current invites reach and that were not granted yet. */
    async dueInviteMilestones(guildId: string, userId: string): Promise<DueMilestone[]> {
      const [counts, milestones, granted] = await Promise.all([
        findInviteCounts(db, guildId, userId),
        listInviteMilestones(db, guildId),
        listGrantedMilestoneRoles(db, guildId, userId),
      ]);
      return dueMilestones(milestones, counts?.invites ?? 0, granted);
    },

    /**
     * Gives the role, then records the grant (a retry after either step gives it once: the role change is a set
     * operation and the grant has a unique key). A member no longer in the server is skipped, not recorded.
     */
    async grantInviteMilestone(guildId: string, userId: string, roleId: string, invites: number): Promise<boolean> {
      if (!(await platform.getMember(guildId, userId))) return false;
      await platform.changeRole(guildId, userId, roleId, 'add', `Invite milestone: ${invites} invites`);
      return recordMilestoneGrant(db, { guildId, userId, roleId, invites, at: clock.now() });
    },

    /** Snapshots the all-time ranks of servers with many inviters; drops the snapshots of servers that shrank. */
    refreshInviteRankSnapshots: (): Promise<{ refreshed: number; dropped: number }> =>
      refreshLargeBoards(db, INVITE_RANKS, INVITE_RANK_SNAPSHOT_THRESHOLD, (guildId) => refreshInviteRankSnapshot(db, guildId, clock.now())),
  };
}
