import { listApiKeys, type ApiKeyRecord } from '../../db/apiKeys.js';
import { findPlatformGuild } from '../../db/platformLocal.js';
import { parseScopes, SCOPES } from '../domain/scopes.js';
import { createApiKey, KEY_EXPIRY_DAYS, revokeApiKey, type KeyExpiryDays } from '../keys/keyManagement.js';
import { oneOf, parseFlags, required, snowflakeFlag } from './args.js';
import type { AdminCommand } from './context.js';
import { asAdminError, print, table, usageError } from './io.js';

const status = (key: ApiKeyRecord, now: Date) =>
  key.revokedAt ? 'revoked' : key.expiresAt && key.expiresAt <= now ? 'expired' : 'active';

export const keyCommands: Record<string, AdminCommand> = {
  async create(argv, ctx) {
    const flags = parseFlags(argv, {
      guild: { type: 'string' },
      name: { type: 'string' },
      scopes: { type: 'string' },
      expires: { type: 'string' },
      'created-by': { type: 'string' },
    });
    const guildId = snowflakeFlag(flags.guild, 'guild');
    const name = required(flags.name, 'name');
    if (name.length > 100) throw usageError('--name is at most 100 characters.');
    const { scopes, unknown } = parseScopes(required(flags.scopes, 'scopes'));
    if (unknown.length > 0) throw usageError(`Unknown scope(s): ${unknown.join(', ')}. Known: ${SCOPES.join(', ')}, or all.`);
    if (scopes.length === 0) throw usageError('--scopes names no scope.');
    const expires = oneOf(flags.expires, 'expires', KEY_EXPIRY_DAYS.map(String));
    // Moderation acts in the name of the key's creator; by default that is the server's owner.
    const createdBy = flags['created-by']
      ? snowflakeFlag(flags['created-by'], 'created-by')
      : ((await findPlatformGuild(ctx.db, guildId))?.owner_id ?? null);
    const key = await createApiKey(ctx.db, ctx.clock, {
      guildId,
      name,
      scopes,
      expiresInDays: expires ? (Number(expires) as KeyExpiryDays) : null,
      createdBy,
      actor: ctx.operator,
    }).catch(asAdminError);
    const view = { id: key.id, key: key.key, prefix: key.prefix, scopes: key.scopes, expiresAt: key.expiresAt?.toISOString() ?? null };
    print(ctx.io, flags.json ?? false, view, () => [
      `Created API key ${key.id} "${key.name}" for guild ${guildId}.`,
      `  key      ${key.key}`,
      `  scopes   ${key.scopes.join(', ')}`,
      `  expires  ${view.expiresAt ?? 'never'}`,
      'The key is shown only now; store it safely.',
    ]);
  },
  async list(argv, ctx) {
    const flags = parseFlags(argv, { guild: { type: 'string' } });
    const guildId = snowflakeFlag(flags.guild, 'guild');
    const now = ctx.clock.now();
    const items = (await listApiKeys(ctx.db, guildId)).map((k) => ({
      id: k.id,
      name: k.name,
      prefix: k.prefix,
      scopes: k.scopes,
      createdBy: k.createdBy,
      createdAt: k.createdAt.toISOString(),
      expiresAt: k.expiresAt?.toISOString() ?? null,
      revokedAt: k.revokedAt?.toISOString() ?? null,
      status: status(k, now),
    }));
    print(ctx.io, flags.json ?? false, { items }, () =>
      table([
        ['ID', 'NAME', 'PREFIX', 'STATUS', 'EXPIRES', 'SCOPES'],
        ...items.map((k) => [String(k.id), k.name, k.prefix, k.status, k.expiresAt ?? 'never', k.scopes.length === SCOPES.length ? 'all' : k.scopes.join(',')]),
      ]),
    );
  },
  async revoke(argv, ctx) {
    const flags = parseFlags(argv, { guild: { type: 'string' }, id: { type: 'string' } });
    const guildId = snowflakeFlag(flags.guild, 'guild');
    const id = Number(required(flags.id, 'id'));
    if (!Number.isSafeInteger(id) || id < 1) throw usageError('--id must be a key id (a positive integer).');
    const key = await revokeApiKey(ctx.db, ctx.clock, { guildId, id, actor: ctx.operator }).catch(asAdminError);
    print(ctx.io, flags.json ?? false, { id: key.id, revokedAt: key.revokedAt?.toISOString() ?? null }, () => [
      `API key ${key.id} "${key.name}" of guild ${guildId} is revoked.`,
    ]);
  },
};
