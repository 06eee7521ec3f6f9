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

/** The label of the ban DM's button that opens the appeal form. */
export const APPEAL_BUTTON_LABEL = 'Appeal';

/** Whether the member's DM about this action offers a ban appeal: bans, when the server takes appeals. */
export const offersAppeal = (action: ModActionType | 'tempban', appealsOn: boolean) => appealsOn && (action === 'ban' || action === 'tempban');

/**
 * The member's DM about an action taken against them (sent before a kick or ban, while it still reaches them); with
 * `appeal`, it says how to appeal with the button the DM carries.
 */
export function moderationDirectMessage(
  action: ModActionType | 'tempban',
  guildName: string,
  reason: string | null,
  expiresAt: Date | null,
  appeal = false,
): string {
  const lines = [`${WHAT[action]} ${guildName}.`];
  if (reason) lines.push(`Reason: ${reason}`);
  if (expiresAt) lines.push(`Until: ${expiresAt.toISOString()}`);
  if (appeal) lines.push(`To appeal, press ${APPEAL_BUTTON_LABEL} below.`);
  return lines.join('\n');
}
