import { findApiKey } from '../db/keys/apiKeys.js';
import { findAppeal, finishAppealDecision, type FailedAppealAction } from '../db/appeals/appeals.js';
import { findAppealSettings } from '../db/appeals/settings.js';
import { findGuild } from '../db/guild/guilds.js';
import { findCaseByOperation, listActiveCaseNumbers, resolveCase } from '../db/moderation/cases.js';
import { appealDirectMessage } from '../src/appeals/appealMessages.js';
import { startFanoutsOrLeaveToRelay } from '../src/events/outbox.js';
import { recordCase } from '../src/moderation/recordCase.js';
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
     * Lifts the appellant's ban, recording an unban case first when Moderation is on (the case's operation
     * id makes a retry find it, so a retry after the unban still ends with exactly one case). Returns the
     * case number, or null when there was no ban to lift or Moderation is off.
     */
    async unbanAppellant(guildId: string, number: number): Promise<number | null> {
      const appeal = await loadAppeal(guildId, number);
      const operationId = `appeal/${guildId}/${number}`;
      const recorded = await findCaseByOperation(db, operationId);
      if (!recorded && !(await platform.getBan(guildId, appeal.userId))) return null;
      let caseNumber = recorded?.number ?? null;
      const guild = await findGuild(db, guildId);
      if (!recorded && guild?.features.includes('moderation')) {
        const key = appeal.decidedWithApiKeyId === null ? undefined : await findApiKey(db, guildId, appeal.decidedWithApiKeyId);
        const moderatorId = key?.createdBy ?? (await platform.getGuild(guildId))!.botUserId;
        const at = clock.now();
        const { number: created, event } = await db.transaction().execute(async (trx) => {
          const result = await recordCase(
            trx,
            {
              guildId,
              action: 'unban',
              userId: appeal.userId,
              userTag: appeal.userTag,
              moderatorId,
              reason: `Ban appeal #${number} approved${appeal.reason ? `: ${appeal.reason}` : ''}`,
              durationSeconds: null,
              evidence: [],
              source: 'api',
              active: false,
              expiresAt: null,
              dmStatus: null,
              apiKey: key ? { id: key.id, name: key.name } : null,
              operationId,
              createdAt: at,
            },
            key ? { type: 'api_key', apiKeyId: key.id, userId: key.createdBy } : { type: 'system' },
          );
          for (const tempban of await listActiveCaseNumbers(trx, guildId, appeal.userId, ['tempban'])) {
            await resolveCase(trx, { guildId, caseNumber: tempban, how: 'revoked', actorId: moderatorId, data: { byCase: result.number }, at });
          }
          return result;
        });
        caseNumber = created;
        if (event) await startFanoutsOrLeaveToRelay(deps, [event]);
      }
      await platform.unban(guildId, appeal.userId, `Ban appeal #${number} approved`);
      return caseNumber;
    },

    /** A single-use invite for the appellant, created once per appeal. */
    async createAppealInvite(guildId: string, number: number): Promise<string> {
      const settings = await findAppealSettings(db, guildId);
      let channelId = settings.inviteChannelId;
      if (!channelId) {
        const texts = (await platform.listChannels(guildId)).filter((c) => c.type === 'text').sort((a, b) => a.position - b.position);
        channelId = texts[0]?.id ?? null;
      }
      if (!channelId) throw refuse('NO_INVITE_CHANNEL', 'The server has no text channel to invite to.');
      return platform.createInvite(guildId, channelId, 1, `appeal-invite/${guildId}/${number}`);
    },

    /** The decision's DM to the appellant, sent once; a rejection DM only when the appeal settings want one. */
    async notifyAppellant(guildId: string, number: number, inviteUrl: string | null): Promise<'sent' | 'failed' | 'off'> {
      const appeal = await loadAppeal(guildId, number);
      const settings = await findAppealSettings(db, guildId);
      if (appeal.status === 'rejected' && !settings.rejectionDm) return 'off';
      const guild = await findGuild(db, guildId);
      const content = appealDirectMessage({
        guildName: guild?.name ?? 'the server',
        number,
        approved: appeal.status === 'approved',
        reason: appeal.reason,
        inviteUrl,
        reappealAfter: appeal.reappealAfter,
      });
      return platform.sendDirectMessage(guildId, appeal.userId, content, `appeal-dm/${guildId}/${number}`);
    },

    async finishAppealDecision(guildId: string, number: number, failed: FailedAppealAction | null): Promise<void> {
      await finishAppealDecision(db, guildId, number, failed);
    },
  };
}
