import { listApiKeys, type ApiKeyRecord } from '../../db/keys/apiKeys.js';
import { findPlatformGuild } from '../../db/platform/local.js';
import { parseScopes, SCOPES } from '../../src/core/scopes.js';
import { createApiKey, KEY_EXPIRY_DAYS, revokeApiKey, type KeyExpiryDays } from '../../src/keys/keyManagement.js';
import { oneOf, optional, snowflake, text } from './args.js';
import { defineCommand, GUILD_FLAG, OPERATOR_FLAG, operatorActor, type CommandGroup } from './command.js';
import { usageError } from './errors.js';
import { isoOrNull, listOrAll, table } from './output.js';
import { requireGuild } from './requireGuild.js';


function scopes(value: string) {
  const parsed = parseScopes(value);
  if (parsed.unknown.length > 0) {
    throw usageError('UNKNOWN_SCOPE', `Unknown scope(s): ${parsed.unknown.join(', ')}. Valid: ${SCOPES.join(', ')} (or all).`);
  }
  if (parsed.scopes.length === 0) throw usageError('INVALID_ARGUMENT', `--scopes names no scope. Valid: ${SCOPES.join(', ')} (or all).`);
  return parsed.scopes;
}

function keyId(value: string): number {
  const id = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(id) || id < 1) {
    throw usageError('INVALID_ARGUMENT', `--id must be an API key id (a positive integer, see \`key list\`), got "${value}".`);
  }
  return id;
}

const status = (key: ApiKeyRecord, now: Date) =>
  key.revokedAt ? 'revoked' : key.expiresAt && key.expiresAt <= now ? 'expired' : 'active';

export const keyGroup: CommandGroup = {
  name: 'key',
  summary: "a guild's API keys",
  commands: [
    defineCommand({
      name: 'create',
      summary: 'create an API key and print it (the only time it is shown)',
      flags: {
        ...GUILD_FLAG,
        name: { type: 'string', placeholder: 'NAME', required: true, help: 'what the key is for (1-100 characters)' },
        scopes: { type: 'string', placeholder: 'all|a,b,c', required: true, help: `scopes: ${SCOPES.join(', ')}` },
        expires: { type: 'string', placeholder: KEY_EXPIRY_DAYS.join('|'), help: 'days until the key expires (default: never)' },
        'created-by': { type: 'string', placeholder: 'USER_ID', help: "the key's creator (default: the guild's owner)" },
        ...OPERATOR_FLAG,
      },
      async run(flags, ctx) {
        const guildId = snowflake(flags.guild, 'guild');
        const name = text(flags.name, 'name', 100);
        const scopeList = scopes(flags.scopes);
        const expiresInDays = optional(flags.expires, (v) => Number(oneOf(v, 'expires', KEY_EXPIRY_DAYS.map(String))) as KeyExpiryDays);
        // Actions taken with the key are attributed to its creator; the owner is the one who may always act.
        const createdBy =
          optional(flags['created-by'], (v) => snowflake(v, 'created-by')) ?? (await findPlatformGuild(ctx.db, guildId))?.owner_id ?? null;
        const key = await createApiKey(ctx.db, ctx.clock, {
          guildId,
          name,
          scopes: scopeList,
          expiresInDays: expiresInDays ?? null,
          createdBy,
          actor: operatorActor(ctx, flags.operator),
        });
        const expiresAt = isoOrNull(key.expiresAt);
        return {
          json: { id: key.id, key: key.key, prefix: key.prefix, scopes: key.scopes, expiresAt },
          text: [
            `Created API key ${key.id} "${key.name}" for guild ${guildId}.`,
            `  key      ${key.key}`,
            `  scopes   ${listOrAll(key.scopes, SCOPES)}`,
            `  expires  ${expiresAt ?? 'never'}`,
            'This is the only time the key is shown: store it now.',
          ],
        };
      },
    }),
    defineCommand({
      name: 'list',
      summary: "list a guild's API keys (never the keys themselves)",
      flags: GUILD_FLAG,
      async run(flags, ctx) {
        const guildId = snowflake(flags.guild, 'guild');
        await requireGuild(ctx.db, guildId);
        const now = ctx.clock.now();
        const items = (await listApiKeys(ctx.db, guildId)).map((k) => ({
          id: k.id,
          name: k.name,
          prefix: k.prefix,
          scopes: k.scopes,
          createdBy: k.createdBy,
          createdAt: k.createdAt.toISOString(),
          expiresAt: isoOrNull(k.expiresAt),
          revokedAt: isoOrNull(k.revokedAt),
          status: status(k, now),
        }));
        return {
          json: { items },
          text: table([
            ['ID', 'NAME', 'PREFIX', 'STATUS', 'SCOPES', 'CREATED BY', 'CREATED', 'EXPIRES', 'REVOKED'],
            ...items.map((k) => [
              String(k.id),
              k.name,
              k.prefix,
              k.status,
              listOrAll(k.scopes, SCOPES),
              k.createdBy ?? '-',
              k.createdAt,
              k.expiresAt ?? 'never',
              k.revokedAt ?? '-',
            ]),
          ]),
        };
      },
    }),
    defineCommand({
      name: 'revoke',
      summary: 'revoke an API key (refused by every api instance from the next request on)',
      flags: { ...GUILD_FLAG, id: { type: 'string', placeholder: 'KEY_ID', required: true, help: 'the key id (see `key list`)' }, ...OPERATOR_FLAG },
      async run(flags, ctx) {
        const guildId = snowflake(flags.guild, 'guild');
        const key = await revokeApiKey(ctx.db, ctx.clock, { guildId, id: keyId(flags.id), actor: operatorActor(ctx, flags.operator) });
        return {
          json: { id: key.id, name: key.name, prefix: key.prefix, revokedAt: isoOrNull(key.revokedAt) },
          text: [`Revoked API key ${key.id} "${key.name}" (${key.prefix}...) of guild ${guildId}.`],
        };
      },
    }),
  ],
};
