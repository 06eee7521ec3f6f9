import type { Clock } from '../../core/clock.js';
import { holds } from '../../core/botPermissions.js';
import { PlatformRefusedError } from '../../core/platform.js';
import { DISCORD } from './discordErrors.js';

/** How long a 403 (50013 Missing Permissions, 50001 Missing Access) is answered from memory. */
export const REFUSAL_MEMORY_MS = 10 * 60_000;
const MAX_REMEMBERED = 10_000;

type Refusal = PlatformRefusedError & { discordCode?: number };

/**
 * Requests Discord would refuse are not sent: every 401, 403 and 429 counts toward Discord's invalid-request ban
 * (10,000 in 10 minutes per address). A request is refused here when the bot's known server-level permissions lack
 * what it needs, or when Discord refused the same request (method and path, so per server and route) with
 * 50013/50001 within the last minutes; the refusal is the same typed error Discord's answer would have given.
 */
export function createRefusalGuard(options: { clock: Clock; memoryMs?: number; botPermissions?: (guildId: string) => Promise<bigint | null | undefined> }) {
  const { clock } = options;
  const memoryMs = options.memoryMs ?? REFUSAL_MEMORY_MS;
  const remembered = new Map<string, { refusal: Refusal; until: number; guildId?: string }>();
  // The bot's permissions in each server as last seen: a change (a role given or taken) voids that server's refusals.
  const seen = new Map<string, bigint | null>();
  const refusal = (message: string, discordCode: number): Refusal => Object.assign(new PlatformRefusedError('BOT_MISSING_PERMISSIONS', message), { discordCode });

  return {
    /** Throws the remembered refusal of this request, if its window has not passed. */
    before(method: string, path: string): void {
      const hit = remembered.get(`${method} ${path}`);
      if (!hit) return;
      if (hit.until > clock.now().getTime()) throw refusal(`${hit.refusal.message} (remembered: not asked again)`, hit.refusal.discordCode ?? DISCORD.MissingPermissions);
      remembered.delete(`${method} ${path}`);
    },
    /** Keeps a 50013/50001 refusal for the window, as one of `guildId`'s when the request was in a server. */
    after(method: string, path: string, failure: Error & { discordCode?: number }, guildId?: string): void {
      const code = failure.discordCode;
      if (!(failure instanceof PlatformRefusedError) || (code !== DISCORD.MissingPermissions && code !== DISCORD.MissingAccess)) return;
      if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
      remembered.set(`${method} ${path}`, { refusal: Object.assign(failure, { discordCode: code }), until: clock.now().getTime() + memoryMs, guildId });
    },
    /**
     * The bot's permissions in a server as known now: when they differ from those last seen (its roles changed, or
     * it was added back), the server's remembered refusals are forgotten, and the next request is asked again.
     */
    permissionsSeen(guildId: string, held: bigint | null | undefined): void {
      if (held === undefined) return;
      const before = seen.get(guildId);
      seen.set(guildId, held);
      if (before === undefined || before === held) return;
      for (const [key, hit] of remembered) if (hit.guildId === guildId) remembered.delete(key);
    },
    /**
     * Refuses at once in a server the bot was removed from (50001, as Discord would), or when the bot's server-level
     * permissions are known and lack `bit` (Administrator and the owner hold all); 0n asks only for membership.
     */
    async require(guildId: string, bit: bigint, what: string, permission: string): Promise<void> {
      const held = await options.botPermissions?.(guildId);
      if (held === null) throw refusal(`Discord would refuse ${what}: the bot is no longer in this server (not sent).`, DISCORD.MissingAccess);
      if (held === undefined || holds(held, bit)) return;
      throw refusal(`Discord would refuse ${what}: the bot lacks ${permission} in this server (not sent).`, DISCORD.MissingPermissions);
    },
  };
}
