/**
 * The reason an action carries to the platform's own audit log (Discord: X-Audit-Log-Reason), so the server's
 * log names who asked: the reason given and the API key it came through, the staff member's command or console
 * action, or the escalation that made it (the platform shows the bot as the one acting).
 */
export function auditReason(
  reason: string | null,
  by: { apiKeyName?: string; command?: { name: string; moderatorId: string }; consoleUserId?: string; escalation: boolean },
): string {
  const who = by.escalation
    ? 'automatic escalation'
    : by.command
      ? `/${by.command.name} by user ${by.command.moderatorId}`
      : by.consoleUserId
        ? `the console by user ${by.consoleUserId}`
        : by.apiKeyName
          ? `API key "${by.apiKeyName}"`
          : 'the API';
  return reason ? `${reason} (via ${who})` : `Via ${who}`;
}
