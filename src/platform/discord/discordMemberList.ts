import type { REST } from '@discordjs/rest';
import { Routes, type APIGuildMember } from 'discord-api-types/v10';
import type { PlatformMember } from '../../core/platform.js';
import { translateDiscordError } from './discordErrors.js';
import { toMember } from './discordShapes.js';

/** Every member of a server as the platform has them now (the bot reconciles its records with it). */
export type MemberList = (guildId: string) => Promise<PlatformMember[]>;

/**
 * Lists a server's members through Discord's REST API (`GET /guilds/{id}/members`, by pages of up to 1,000 in
 * user id order, `after` the last id seen; needs the Server Members intent). A failure is translated as the
 * adapter's calls are: 5xx, network and long rate limits are outages the caller retries. `rest` is the process's one
 * client (discordRest.ts), so these pages share its buckets, its global limit and its ban latch.
 */
export function discordMemberList(options: { rest: REST; pageSize?: number }): MemberList {
  const { rest } = options;
  const limit = options.pageSize ?? 1_000;
  return async (guildId) => {
    const members: PlatformMember[] = [];
    let after = '0';
    for (;;) {
      const page = (await rest
        .get(Routes.guildMembers(guildId), { query: new URLSearchParams({ limit: String(limit), after }), signal: AbortSignal.timeout(30_000) })
        .catch((err: unknown) => {
          throw translateDiscordError(err, 'listing members');
        })) as APIGuildMember[];
      members.push(...page.map((m) => toMember(guildId, m)));
      if (page.length < limit) return members;
      after = page[page.length - 1]!.user.id;
    }
  };
}
