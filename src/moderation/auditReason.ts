/**
 * The reason an action carries to the platform's own audit log (Discord: X-Audit-Log-Reason), so the server's
 * log names who asked: the reason given and the API key it came through, or the escalation that made it.
 */
export function auditReason(reason: string | null, by: { apiKeyName?: string; escalation: boolean }): string {
  const who = by.escalation ? 'automatic escalation' : by.apiKeyName ? `API key "${by.apiKeyName}"` : 'the API';
  return reason ? `${reason} (via ${who})` : `Via ${who}`;
}
