/** Discord's permission bits the console cares about (the local platform stores the same values). */
export const ADMINISTRATOR = 1n << 3n;
export const MANAGE_GUILD = 1n << 5n;

/**
 * The spec's "someone with the Manage Server permission": the owner, or a member whose roles (the everyone role
 * included, whose id is the server's) grant Manage Server or Administrator. A member timed out on Discord keeps only
 * View Channel and Read Message History, except owners and administrators: timed out, Manage Server counts for
 * nothing (timing out a compromised moderator is the usual first response).
 */
export function isServerManager(input: {
  guildId: string;
  ownerId: string;
  userId: string;
  memberRoleIds: string[];
  timedOutUntil: Date | null;
  roles: Array<{ id: string; permissions: bigint }>;
  now: Date;
}): boolean {
  if (input.userId === input.ownerId) return true;
  const held = new Set([input.guildId, ...input.memberRoleIds]);
  const permissions = input.roles.filter((r) => held.has(r.id)).reduce((all, r) => all | r.permissions, 0n);
  if ((permissions & ADMINISTRATOR) !== 0n) return true;
  const timedOut = input.timedOutUntil !== null && input.timedOutUntil > input.now;
  return !timedOut && (permissions & MANAGE_GUILD) !== 0n;
}

/** The same rule on Discord's answer to `users/@me/guilds` (permissions as a decimal string). */
export function managesListedGuild(g: { owner?: boolean; permissions?: string }): boolean {
  if (g.owner) return true;
  try {
    return (BigInt(g.permissions ?? '0') & (ADMINISTRATOR | MANAGE_GUILD)) !== 0n;
  } catch {
    return false;
  }
}
