import { guildBlocked, guildMismatch } from '../../src/core/errors.js';
import type { AppMiddleware } from '../context.js';

/** A key works only for its own server, and not at all while that server is blocked. */
export function guildAccess(): AppMiddleware {
  return async (ctx, next) => {
    const guild = ctx.state.guild!;
    if (ctx.params.guildId !== guild.id) throw guildMismatch();
    if (guild.blocked) throw guildBlocked();
    await next();
  };
}
