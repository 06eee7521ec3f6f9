import type { PlatformInvite } from '../../../src/core/platform.js';
import { PlatformRefusedError } from '../../../src/core/platform.js';
import type { BotDeps } from '../handler.js';

/**
 * The server's invites with their use counts, or null when Discord refuses them (the bot lacks Manage Server):
 * joins are then recorded unattributed rather than not at all. An unreachable Discord fails the handling.
 */
export async function readInvites({ platform, logger }: BotDeps, guildId: string): Promise<PlatformInvite[] | null> {
  try {
    return await platform.listInvites(guildId);
  } catch (err) {
    if (!(err instanceof PlatformRefusedError)) throw err;
    logger.warn({ guildId, code: err.code }, 'invites not readable (the bot needs Manage Server): joins are not attributed');
    return null;
  }
}
