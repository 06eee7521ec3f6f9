/** What decides whether a user may file a ban appeal now. */
export interface AppealStanding {
  /** The user is banned from the server (only banned users appeal). */
  banned: boolean;
  /** The user's earlier appeals. */
  appeals: Array<{ number: number; status: 'open' | 'question' | 'approved' | 'rejected' | 'closed'; reappealAfter: Date | null }>;
  now: Date;
}

export type AppealRefusalReason =
  | { code: 'NOT_BANNED' }
  | { code: 'APPEAL_ALREADY_OPEN'; number: number }
  | { code: 'REAPPEAL_COOLDOWN'; until: Date };

/**
 * The bot's appeal form rules: only a banned user appeals; one appeal waiting for a decision (`open` or
 * `question`) at a time; after a rejection, not before its re-appeal cooldown ends (spec: Ban appeals,
 * "re-appeal cooldown starts"). Undefined when the user may file.
 */
export function appealRefusal(s: AppealStanding): AppealRefusalReason | undefined {
  if (!s.banned) return { code: 'NOT_BANNED' };
  const waiting = s.appeals.find((a) => a.status === 'open' || a.status === 'question');
  if (waiting) return { code: 'APPEAL_ALREADY_OPEN', number: waiting.number };
  const cooldowns = s.appeals.filter((a) => a.status === 'rejected' && a.reappealAfter && a.reappealAfter > s.now).map((a) => a.reappealAfter!.getTime());
  if (cooldowns.length > 0) return { code: 'REAPPEAL_COOLDOWN', until: new Date(Math.max(...cooldowns)) };
  return undefined;
}
