import type { Clock } from '../../core/clock.js';

/**
 * Values kept for a while (misses too), oldest dropped first past `maxEntries`; a change forgets its key. A `fresh`
 * read loads past the entry and keeps what it loaded.
 */
export function createTtlCache<T>(clock: Clock, ttlMs: number, maxEntries = 10_000) {
  const entries = new Map<string, { value: T; expiresAt: number }>();
  return {
    async get(key: string, load: () => Promise<T>, fresh = false): Promise<T> {
      const now = clock.now().getTime();
      const hit = entries.get(key);
      if (hit && hit.expiresAt > now && !fresh) return hit.value;
      const value = await load();
      entries.delete(key);
      if (ttlMs > 0) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(key, { value, expiresAt: now + ttlMs });
      }
      return value;
    },
    forget(key: string) {
      entries.delete(key);
    },
  };
}
