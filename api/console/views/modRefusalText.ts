/**
 * The refusals of the moderation rules in words, by the code the API gives (a refused form keeps the code in its
 * error summary; a failed action shows it). A code not listed here (e.g. FEATURE_DISABLED) is shown as it is.
 */
export const REFUSAL_TEXT: Record<string, string> = {
  MODERATOR_MISSING_PERMISSION: 'You do not hold the permission this action needs in the server (Timeout Members, Kick Members or Ban Members).',
  BOT_MISSING_PERMISSIONS: 'The bot lacks the permission this action needs in the server, or is not in it.',
  HIERARCHY_HIGHER: "This member's highest role is not below both yours and the bot's, or they own the server.",
  INVALID_TARGET: 'This action cannot be taken on yourself or on the bot.',
  MEMBER_NOT_FOUND: 'This user is not a member of the server.',
  NOT_BANNED: 'This user is not banned.',
  ALREADY_BANNED: 'This user is already banned.',
  NOT_TIMED_OUT: 'This member is not timed out.',
};

export const refusalText = (code: string) => REFUSAL_TEXT[code] ?? `Refused: ${code}.`;
