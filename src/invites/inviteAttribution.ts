import { snowflakeCreatedAt } from '../core/snowflake.js';

/** What the snapshot knew of an invite before the join. */
export interface KnownInvite {
  code: string;
  inviterId: string | null;
  uses: number;
  maxUses: number;
}

/** The invite a join came through, or why none can be named. */
export type JoinAttribution =
  | { kind: 'invite'; code: string; inviterId: string }
  /** The server's vanity URL or another invite without an inviter: the code is known, nobody is credited. */
  | { kind: 'no-inviter'; code: string }
  /**
   * No count rose (a bot added through OAuth, a join missed), several did (joins too close together to tell apart),
   * the invites could not be read (no Manage Server, or listed without their counts), or were not read (Invites off).
   */
  | { kind: 'unattributed'; reason: UnreadInvites | 'no-invite-used' | 'several-invites-used' };

/** Why a join was compared with no invites: unreadable on the platform, or not read because the Invites feature is off. */
export type UnreadInvites = 'invites-unreadable' | 'invites-off';

/**
 * Discord does not say which invite a member used: the one whose use count rose since the snapshot did. An invite
 * missing from the new list counts as used when it was one use short of its limit (Discord deletes an invite at
 * its last allowed use). Exactly one such invite names it; none or several leave the join unattributed.
 */
export function attributeJoin(before: KnownInvite[], now: KnownInvite[]): JoinAttribution {
  const previous = new Map(before.map((i) => [i.code, i]));
  const current = new Set(now.map((i) => i.code));
  const rose = now.filter((i) => i.uses > (previous.get(i.code)?.uses ?? 0));
  const usedUp = before.filter((i) => !current.has(i.code) && i.maxUses > 0 && i.uses + 1 >= i.maxUses);
  const used = [...rose, ...usedUp];
  if (used.length === 0) return { kind: 'unattributed', reason: 'no-invite-used' };
  if (used.length > 1) return { kind: 'unattributed', reason: 'several-invites-used' };
  const invite = used[0]!;
  return invite.inviterId === null ? { kind: 'no-inviter', code: invite.code } : { kind: 'invite', code: invite.code, inviterId: invite.inviterId };
}

/** Accounts younger than this when they join through an invite are judged fake at once (they never count). */
export const FAKE_ACCOUNT_MAX_AGE_DAYS = 7;

/** Whether the account (its age read from the user id) is too new for its join to count. */
export function isFakeAccount(userId: string, at: Date): boolean {
  return at.getTime() - snowflakeCreatedAt(userId).getTime() < FAKE_ACCOUNT_MAX_AGE_DAYS * 86_400_000;
}
