import { BOT_PERMISSION, holds } from '../../../src/core/botPermissions.js';
import type { PlatformInvite } from '../../../src/core/platform.js';
import { PlatformRefusedError } from '../../../src/core/platform.js';
import { readBotPermissions } from '../../../src/guild/botPermissions.js';
import { isFeatureEnabled } from '../../../src/guild/featureEnabled.js';
import type { UnreadInvites } from '../../../src/invites/inviteAttribution.js';
import type { BotDeps } from '../handler.js';

/**
 * The server's invites with their use counts, or why there are none. They are read only where the Invites feature
 * is on and the bot holds Manage Server (or Administrator, or owns the server): every refused read is a 403 that
 * counts toward Discord's invalid-request ban, so a read Discord would refuse is not made. `permissions` are the
 * bot's as a GUILD_CREATE payload gives them; otherwise as last recorded. A refusal all the same (permissions not
 * known yet, or changed meanwhile; the invites listed without their counts) makes them unreadable: the join is
 * recorded unattributed rather than not at all. An unreachable Discord fails the handling.
 */
export async function readInvites({ db, platform, logger }: BotDeps, guildId: string, permissions?: bigint): Promise<PlatformInvite[] | UnreadInvites> {
  if (!(await isFeatureEnabled(db, guildId, 'invites'))) return 'invites-off';
  const held = permissions ?? (await readBotPermissions(db, guildId));
  if (held === null || (held !== undefined && !holds(held, BOT_PERMISSION.manageGuild))) return 'invites-unreadable';
  try {
    return await platform.listInvites(guildId);
  } catch (err) {
    if (!(err instanceof PlatformRefusedError)) throw err;
    logger.warn({ guildId, code: err.code }, 'invites not readable (the bot needs Manage Server): joins are not attributed');
    return 'invites-unreadable';
  }
}
