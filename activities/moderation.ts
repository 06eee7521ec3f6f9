import { findGuild } from '../db/guild/guilds.js';
import { findModAction, finishModAction, markModActionRunning, recordModActionTarget, type ModActionOutcome, type ModActionRecord } from '../db/moderation/actions.js';
import { findCase, resolveCase } from '../db/moderation/cases.js';
import { findModerationSettings } from '../db/moderation/settings.js';
import { moderationRefusal } from '../src/moderation/refusalRules.js';
import { actionModerator } from '../src/moderation/actionModerator.js';
import { auditReason } from '../src/moderation/auditReason.js';
import { appealOpenButtonId } from '../src/appeals/appealForm.js';
import { modLogEntry } from '../src/moderation/modLogEntry.js';
import { APPEAL_BUTTON_LABEL, moderationDirectMessage, offersAppeal } from '../src/moderation/directMessage.js';
import { readModerationSituation } from '../src/moderation/moderationSituation.js';
import { recordActionCase, caseActionOf } from '../src/moderation/recordActionCase.js';
import type { ActivityDeps } from './deps.js';
import { requireFeature } from './featureCheck.js';
import { refuse } from './refusal.js';

export type ModerationActivities = ReturnType<typeof createModerationActivities>;

export interface ModActionPlan {
  action: ModActionRecord['action'];
  /** Timeouts and tempbans: how long the effect lasts. */
  durationSeconds: number | null;
}

export function createModerationActivities(deps: ActivityDeps) {
  const { db, platform, clock } = deps;

  async function loadAction(actionId: string): Promise<ModActionRecord> {
    const action = await findModAction(db, actionId);
    if (!action) throw refuse('ACTION_NOT_FOUND', `Moderation action ${actionId} does not exist.`);
    return action;
  }

  return {
    /** Marks the action running and refuses it when the rules say no, as the platform stands now. */
    async beginModAction(actionId: string): Promise<ModActionPlan> {
      await markModActionRunning(db, actionId);
      const action = await loadAction(actionId);
      await requireFeature(db, action.guildId, 'moderation');
      let moderatorId: string | null = null;
      if (action.source !== 'escalation') {
        moderatorId = (await actionModerator(db, action)).moderatorId;
        if (!moderatorId) throw refuse('MODERATOR_MISSING_PERMISSION', 'The API key has no creator to act for.');
      }
      const situation = await readModerationSituation(platform, {
        guildId: action.guildId,
        action: action.action,
        targetUserId: action.userId,
        moderatorId,
        now: clock.now(),
      });
      if (!situation) throw refuse('BOT_MISSING_PERMISSIONS', 'The bot is not in the server.');
      const refusal = moderationRefusal(situation);
      if (refusal) throw refuse(refusal, `Refused: ${refusal}.`);
      // A kick or ban removes a member: what is known of them now is what their leave records once the case is.
      await recordModActionTarget(db, actionId, situation.target ? { username: situation.target.username ?? null } : null);
      return { action: action.action, durationSeconds: action.request.durationSeconds };
    },

    /**
     * DMs the member per the server's settings; returns the case's dmStatus. Sent once per action. A ban's DM carries
     * the Appeal button when the server takes appeals: the bot's own message is the only place Discord shows it.
     */
    async notifyModTarget(actionId: string, until: string | null): Promise<'sent' | 'failed' | 'off'> {
      const action = await loadAction(actionId);
      const settings = await findModerationSettings(db, action.guildId);
      if (!settings.dmMembers) return 'off';
      const guild = await findGuild(db, action.guildId);
      const caseAction = caseActionOf(action);
      const appeal = offersAppeal(caseAction, guild?.features.includes('appeals') ?? false);
      const content = moderationDirectMessage(caseAction, guild?.name ?? 'the server', action.request.reason, until ? new Date(until) : null, appeal);
      const buttons = appeal ? [{ id: appealOpenButtonId(action.guildId), label: APPEAL_BUTTON_LABEL }] : undefined;
      return platform.sendDirectMessage(action.guildId, action.userId, content, `mod-dm/${actionId}`, { buttons });
    },

    /** The action itself on the platform; already in effect means done. */
    async applyModEffect(actionId: string, until: string | null): Promise<void> {
      const loaded = await loadAction(actionId);
      const { guildId, userId, action, request, source } = loaded;
      const { key, moderatorId } = await actionModerator(db, loaded);
      const reason = auditReason(request.reason, {
        apiKeyName: key?.name,
        command: source === 'command' ? { name: action, moderatorId: moderatorId! } : undefined,
        consoleUserId: source === 'console' ? moderatorId! : undefined,
        escalation: source === 'escalation',
      });
      if (action === 'timeout') await platform.timeout(guildId, userId, new Date(until!), reason);
      if (action === 'untimeout') await platform.timeout(guildId, userId, null, reason);
      if (action === 'kick') await platform.kick(guildId, userId, reason);
      if (action === 'ban') await platform.ban(guildId, userId, reason, request.deleteMessageSeconds);
      if (action === 'unban') await platform.unban(guildId, userId, reason);
    },

    async recordModCase(actionId: string, effect: { dmStatus: 'sent' | 'failed' | 'off'; until: string | null }) {
      return recordActionCase(deps, actionId, effect);
    },

    /** Posts the case to the server's mod log channel, once per case. */
    async postModLog(guildId: string, caseNumber: number): Promise<boolean> {
      const entry = await modLogEntry(db, guildId, caseNumber);
      if (!entry) return false;
      await platform.postMessage(guildId, entry.channelId, entry.message.content, `mod-log/${guildId}/${caseNumber}`, entry.message);
      return true;
    },

    async finishModAction(actionId: string, outcome: ModActionOutcome): Promise<void> {
      await finishModAction(db, actionId, outcome, clock.now());
    },

    /**
     * A timeout, tempban or warning ran out: the case becomes inactive and a tempban is lifted. A case that
     * was revoked meanwhile (untimeout, unban) is left alone.
     */
    async expireModCase(guildId: string, caseNumber: number): Promise<boolean> {
      const found = await findCase(db, guildId, caseNumber);
      if (!found?.active) return false;
      if (found.action === 'tempban') await platform.unban(guildId, found.userId, `Tempban of case #${caseNumber} ran out`);
      return db.transaction().execute((trx) => resolveCase(trx, { guildId, caseNumber, how: 'expired', actorId: null, at: clock.now() }));
    },
  };
}
