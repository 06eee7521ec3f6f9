import type { PlatformChannel, PlatformMember, PlatformRole } from '../core/platform.js';

const byPositionThenId = (a: { position: number; id: string }, b: { position: number; id: string }) =>
  a.position - b.position || compareSnowflakes(a.id, b.id);

/** Snowflakes compare numerically; as strings of different lengths they would not. */
export function compareSnowflakes(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** Highest first, without the everyone role (its id is the guild id); ties by id as the platform does. */
export function rolesHighestFirst(guildId: string, roles: PlatformRole[]): PlatformRole[] {
  return roles
    .filter((role) => role.id !== guildId)
    .sort((a, b) => b.position - a.position || compareSnowflakes(a.id, b.id));
}

const isVoiceLike = (channel: PlatformChannel) => channel.type === 'voice' || channel.type === 'stage';

/** Within one parent the platform lists text-like channels before voice-like ones, each by position. */
function sidebarGroup(channels: PlatformChannel[]): PlatformChannel[] {
  const sorted = [...channels].sort(byPositionThenId);
  return [...sorted.filter((c) => !isVoiceLike(c)), ...sorted.filter(isVoiceLike)];
}

/**
 * Sidebar order: channels outside any category first, then each category followed by its channels.
 * Threads are never listed; a channel whose category is unknown is shown with the uncategorised ones.
 */
export function channelsInSidebarOrder(channels: PlatformChannel[]): PlatformChannel[] {
  const listed = channels.filter((c) => c.type !== 'thread');
  const categories = listed.filter((c) => c.type === 'category').sort(byPositionThenId);
  const categoryIds = new Set(categories.map((c) => c.id));
  const children = listed.filter((c) => c.type !== 'category');
  const uncategorised = children.filter((c) => c.parentId === null || !categoryIds.has(c.parentId));
  return [
    ...sidebarGroup(uncategorised),
    ...categories.flatMap((category) => [category, ...sidebarGroup(children.filter((c) => c.parentId === category.id))]),
  ];
}

export function displayName(member: Pick<PlatformMember, 'nickname' | 'globalName' | 'username'>): string | null {
  return member.nickname ?? member.globalName ?? member.username ?? null;
}

export const roleColorHex = (color: number | null): string | null =>
  color ? `#${color.toString(16).padStart(6, '0').toUpperCase()}` : null;
