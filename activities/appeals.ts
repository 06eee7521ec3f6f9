import { findAppeal, finishAppealDecision, type FailedAppealAction } from '../db/appeals/appeals.js';
import { findAppealSettings } from '../db/appeals/settings.js';
import { findGuild } from '../db/guild/guilds.js';
import { appealInviteChannel } from '../src/appeals/appealInviteChannel.js';
import { appealDirectMessage } from '../src/appeals/appealMessages.js';
import { prepareAppealUnban } from '../src/appeals/appealUnban.js';
import { startFanoutsOrLeaveToRelay } from '../src/events/outbox.js';
import type { ActivityDeps } from './deps.js';
import { refuse } from './refusal.js';

export type AppealsActivities = ReturnType<typeof createAppealsActivities>;

export function createAppealsActivities(deps: ActivityDeps) {
  const { db, platform, clock } = deps;

  async function loadAppeal(guildId: string, number: number) {
    const appeal = await findAppeal(db, guildId, number);
    if (!appeal) throw refuse('APPEAL_NOT_FOUND', `Appeal ${number} does not exist.`);
    return appeal;
  }

  return {
    /**
     * Lifts the appellant's ban, recording an unban case first when Moderation is on (prepareAppealUnban).
     * Returns the case number, or null when there was no ban to lift or Moderation is off.
     */
    async unbanAppellant(guildId: string, number: number): Promise<number | null> {
      const appeal = await loadAppeal(guildId, number);
      const unban = await prepareAppealUnban(db, platform, { appeal, at: () => clock.now() });
      if (!unban.lift) return null;
      await startFanoutsOrLeaveToRelay(deps, unban.events);
      await platform.unban(guildId, appeal.userId, `Ban appeal #${number} approved`);
      return unban.caseNumber;
    },

    /** A single-use invite for the appellant, created once per appeal. */
    async createAppealInvite(guildId: string, number: number): Promise<string> {
      const channelId = await appealInviteChannel(db, platform, guildId);
      if (!channelId) throw refuse('NO_INVITE_CHANNEL', 'The server has no text channel to invite to.');
      return platform.createInvite(guildId, channelId, 1, `appeal-invite/${guildId}/${number}`);
    },

    /** The decision's DM to the appellant, sent once; a rejection DM only when the appeal settings want one. */
    async notifyAppellant(guildId: string, number: number, inviteUrl: string | null): Promise<'sent' | 'failed' | 'off'> {
      const appeal = await loadAppeal(guildId, number);
      const settings = await findAppealSettings(db, guildId);
      if (appeal.status === 'rejected' && !settings.rejectionDm) return 'off';
      const guild = await findGuild(db, guildId);
      const message = appealDirectMessage({
        guildName: guild?.name ?? 'the server',
        number,
        approved: appeal.status === 'approved',
        reason: appeal.reason,
        inviteUrl,
        reappealAfter: appeal.reappealAfter,
      });
      return platform.sendDirectMessage(guildId, appeal.userId, message.content, `appeal-dm/${guildId}/${number}`, message);
    },

    async finishAppealDecision(guildId: string, number: number, failed: FailedAppealAction | null): Promise<void> {
      await finishAppealDecision(db, guildId, number, failed);
    },
  };
}
