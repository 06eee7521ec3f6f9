import type { ModActionType } from './refusalRules.js';

const WHAT: Record<ModActionType | 'tempban', string> = {
  warn: 'You were warned in',
  timeout: 'You were timed out in',
  untimeout: 'Your timeout was lifted in',
  kick: 'You were kicked from',
  ban: 'You were banned from',
  tempban: 'You were temporarily banned from',
  unban: 'You were unbanned from',
};

/** The member's DM about an action taken against them (sent before a kick or ban, while it still reaches them). */
export function moderationDirectMessage(
  action: ModActionType | 'tempban',
  guildName: string,
  reason: string | null,
  expiresAt: Date | null,
): string {
  const lines = [`${WHAT[action]} ${guildName}.`];
  if (reason) lines.push(`Reason: ${reason}`);
  if (expiresAt) lines.push(`Until: ${expiresAt.toISOString()}`);
  return lines.join('\n');
}
