import type { Clock } from './clock.js';
import type { Platform, PlatformMember, ReadOptions } from './platform.js';

export interface MemberCache {
  /** `fresh` reads past this cache and the adapter's, and keeps what it read. */
  getMember(guildId: string, userId: string, options?: ReadOptions): Promise<PlatformMember | undefined>;
}

/**
 * The Server member endpoint may answer from a cache up to 5 minutes old (spec: Limits). Misses are
 * cached too, so a flood of lookups for strangers does not reach the platform. Oldest entries go first
 * once `maxEntries` is reached (a Map keeps insertion order).
 */
export function createMemberCache(platform: Platform, clock: Clock, ttlSeconds: number, maxEntries = 10_000): MemberCache {
  const entries = new Map<string, { member: PlatformMember | undefined; expiresAt: number }>();
  return {
    async getMember(guildId, userId, read) {
      const key = `${guildId}:${userId}`;
      const now = clock.now().getTime();
      const hit = entries.get(key);
      if (hit && hit.expiresAt > now && !read?.fresh) return hit.member;
      const member = await platform.getMember(guildId, userId, read);
      entries.delete(key);
      if (ttlSeconds > 0) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(key, { member, expiresAt: now + ttlSeconds * 1000 });
      }
      return member;
    },
  };
}
