import type { ModActionRecord } from '../../../db/moderation/actions.js';
import type { ModActionType } from '../../../src/moderation/refusalRules.js';
import { durationWords } from './duration.js';

/** The permission each action needs, as Discord's client names it (src/moderation/refusalRules.ts REQUIRED_PERMISSION). */
export const PERMISSION_NAMES: Record<ModActionType, string> = {
  warn: 'Timeout Members',
  timeout: 'Timeout Members',
  untimeout: 'Timeout Members',
  kick: 'Kick Members',
  ban: 'Ban Members',
  unban: 'Ban Members',
};

const VERBS: Record<ModActionType, string> = { warn: 'warn', timeout: 'time out', untimeout: 'lift the timeout of', kick: 'kick', ban: 'ban', unban: 'unban' };

/** The answer to an action that was carried out, with its case. */
export function doneAnswer(a: Pick<ModActionRecord, 'action' | 'userId' | 'request'>, caseNumber: number): string {
  const target = `<@${a.userId}>`;
  const seconds = a.request.durationSeconds;
  const done: Record<ModActionType, string> = {
    warn: `Warned ${target}`,
    timeout: `Timed out ${target} for ${durationWords(seconds ?? 0)}`,
    untimeout: `Lifted the timeout of ${target}`,
    kick: `Kicked ${target}`,
    ban: `Banned ${target}`,
    unban: `Unbanned ${target}`,
  };
  return `${done[a.action]}: case #${caseNumber}.`;
}

/** The answer to an action the rules or Discord refused when it ran (ModAction.error), in words. */
export function refusedAnswer(a: Pick<ModActionRecord, 'action' | 'userId'>, error: string): string {
  const target = `<@${a.userId}>`;
  const cannot = `You cannot ${VERBS[a.action]} ${target}`;
  switch (error) {
    case 'HIERARCHY_HIGHER':
      return `${cannot}: their highest role is not below both yours and the bot’s, or they own the server.`;
    case 'MODERATOR_MISSING_PERMISSION':
      return `${cannot}: you do not hold the ${PERMISSION_NAMES[a.action]} permission.`;
    case 'BOT_MISSING_PERMISSIONS':
      return `The bot lacks the ${PERMISSION_NAMES[a.action]} permission in this server, so it cannot ${VERBS[a.action]} ${target}.`;
    case 'INVALID_TARGET':
      return `${cannot}: a moderation action cannot be taken on yourself or on the bot.`;
    case 'MEMBER_NOT_FOUND':
      return `${target} is not a member of this server.`;
    case 'NOT_BANNED':
      return `${target} is not banned.`;
    case 'ALREADY_BANNED':
      return `${target} is already banned.`;
    case 'NOT_TIMED_OUT':
      return `${target} is not timed out.`;
    case 'FEATURE_DISABLED':
      return 'Moderation is turned off on this server.';
    default:
      return `The action on ${target} could not be carried out; try again in a moment.`;
  }
}

/** The answer when the action has not finished within the wait: it goes on, and its case shows in the mod log. */
export const onItsWayAnswer = (a: Pick<ModActionRecord, 'action' | 'userId'>) =>
  `The ${a.action} of <@${a.userId}> is on its way; its case will show in the mod log and in \`/case\` shortly.`;
