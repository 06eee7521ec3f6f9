/**
 * The bot's permissions in a server, computed as Discord does at server level
 * (https://docs.discord.com/developers/topics/permissions#permission-hierarchy): the owner and Administrator hold
 * every permission; otherwise the everyone role's bits or'ed with the bits of each role the member holds. Channel
 * overwrites are not applied: only server-level permissions are checked before a request.
 */
export const BOT_PERMISSION = {
  createInstantInvite: 1n << 0n,
  kickMembers: 1n << 1n,
  banMembers: 1n << 2n,
  administrator: 1n << 3n,
  manageChannels: 1n << 4n,
  manageGuild: 1n << 5n,
  viewAuditLog: 1n << 7n,
  viewChannel: 1n << 10n,
  sendMessages: 1n << 11n,
  embedLinks: 1n << 14n,
  manageRoles: 1n << 28n,
  manageThreads: 1n << 34n,
  moderateMembers: 1n << 40n,
} as const;

export const ALL_PERMISSIONS = (1n << 64n) - 1n;

/** What README's invite link asks for: every permission the service uses (Administrator not among them). */
export const INVITE_LINK_PERMISSIONS = 1391838055479n;

export interface PermissionSource {
  guildId: string;
  ownerId: string;
  userId: string;
  roles: ReadonlyArray<{ id: string; permissions: bigint }>;
  memberRoleIds: readonly string[];
}

export function guildPermissions(s: PermissionSource): bigint {
  if (s.userId === s.ownerId) return ALL_PERMISSIONS;
  const held = new Set([s.guildId, ...s.memberRoleIds]);
  const bits = s.roles.filter((r) => held.has(r.id)).reduce((all, r) => all | r.permissions, 0n);
  return (bits & BOT_PERMISSION.administrator) !== 0n ? ALL_PERMISSIONS : bits;
}

export const holds = (permissions: bigint, bit: bigint) => (permissions & bit) === bit;
