import { ApplicationFailure } from '@temporalio/common';
import { findApiKey } from '../db/keys/apiKeys.js';
import { findAppealRow, finishAppealDecision, type FailedAppealAction } from '../db/appeals/appeals.js';
import { findAppealSettings } from '../db/appeals/settings.js';
import { findGuild } from '../db/guild/guilds.js';
import { listActiveCaseNumbers, resolveCase } from '../db/moderation/cases.js';
import { appealDirectMessage } from '../src/appeals/appealMessages.js';
import { startFanouts } from '../src/events/outboxRelay.js';
import { recordCase } from '../src/moderation/recordCase.js';
import type { ActivityDeps } from './deps.js';

export function createAppealsActivities(deps: ActivityDeps) {
  const { db, platform, clock } = deps;

  async function loadAppeal(guildId: string, number: number) {
    const appeal = await findAppealRow(db, guildId, number);
    if (!appeal) throw ApplicationFailure.nonRetryable(`Appeal ${number} does not exist.`, 'APPEAL_NOT_FOUND');
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
      const recorded = await db.selectFrom('moderation_cases').select('number').where('operation_id', '=', operationId).executeTakeFirst();
      if (!recorded && !(await platform.getBan(guildId, appeal.user_id))) return null;
      let caseNumber = recorded?.number ?? null;
      const guild = await findGuild(db, guildId);
      if (!recorded && guild?.features.includes('moderation')) {
        const key = appeal.decided_with_api_key_id === null ? undefined : await findApiKey(db, guildId, appeal.decided_with_api_key_id);
        const moderatorId = key?.createdBy ?? (await platform.getGuild(guildId))!.botUserId;
        const at = clock.now();
        const { number: created, event } = await db.transaction().execute(async (trx) => {
          const result = await recordCase(
            trx,
            {
              guildId,
              action: 'unban',
              userId: appeal.user_id,
              userTag: appeal.user_tag,
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
          for (const tempban of await listActiveCaseNumbers(trx, guildId, appeal.user_id, ['tempban'])) {
            await resolveCase(trx, { guildId, caseNumber: tempban, how: 'revoked', actorId: moderatorId, data: { byCase: result.number }, at });
          }
          return result;
        });
        caseNumber = created;
        if (event) await startFanouts(deps, [event]).catch((err: unknown) => deps.logger.warn({ err }, 'fan-out start failed; the relay retries it'));
      }
      await platform.unban(guildId, appeal.user_id, `Ban appeal #${number} approved`);
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
      if (!channelId) throw ApplicationFailure.nonRetryable('The server has no text channel to invite to.', 'NO_INVITE_CHANNEL');
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
        reappealAfter: appeal.reappeal_after,
      });
      return platform.sendDirectMessage(guildId, appeal.user_id, content, `appeal-dm/${guildId}/${number}`);
    },

    async finishAppealDecision(guildId: string, number: number, failed: FailedAppealAction | null): Promise<void> {
      await finishAppealDecision(db, guildId, number, failed);
    },
  };
}
