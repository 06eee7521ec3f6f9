import { GuildParams } from '../../src/core/contract.js';
import { guildBlocked, guildMismatch, invalidRequest } from '../../src/core/errors.js';
import type { AppGate } from '../context.js';

/**
 * A key works only for its own server, and not at all while that server is blocked. A `{guildId}` that is not
 * a snowflake names no server: 400 INVALID_REQUEST at path `guildId` (spec: invalid path id), reported alone,
 * since the request's other checks (scope, feature, body, the other path ids) are about a server it cannot name.
 */
export function guildAccess(): AppGate {
  return (ctx) => {
    const guild = ctx.state.guild!;
    const requested = GuildParams.shape.guildId.safeParse(ctx.params.guildId);
    if (!requested.success) {
      throw invalidRequest(requested.error.issues.map((issue) => ({ location: 'path', path: 'guildId', message: issue.message })));
    }
    if (requested.data !== guild.id) throw guildMismatch();
    if (guild.blocked) throw guildBlocked();
  };
}
