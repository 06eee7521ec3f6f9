import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { countActiveApiKeys } from '../../db/keys/apiKeys.js';
import type { GuildChanges, GuildRecord } from '../../db/guild/guilds.js';
import { findPlatformGuild } from '../../db/platform/local.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../src/core/clock.js';
import { FEATURES, parseFeatures, type Feature } from '../../src/core/features.js';
import type { Platform } from '../../src/core/platform.js';
import { PLAN_LIMITS, PLANS } from '../../src/core/plans.js';
import { changeGuild, createGuild } from '../../src/guild/guildManagement.js';
import { oneOf, optional, snowflake, text, type FlagSpec, type FlagValues } from './args.js';
import { defineCommand, OPERATOR_FLAG, operatorActor, type AdminContext, type CommandGroup, type CommandOutput } from './command.js';
import { AdminError, usageError } from './errors.js';
import { listOrAll } from './output.js';
import { requireGuild } from './requireGuild.js';

const LOCALES = ['en', 'ru', 'he'] as const;

const ID_FLAG = { id: { type: 'string', placeholder: 'ID', required: true, help: 'the guild id (snowflake)' } } as const satisfies FlagSpec;

const SETTINGS_FLAGS = {
  name: { type: 'string', placeholder: 'N', help: 'display name (1-100 characters)' },
  locale: { type: 'string', placeholder: 'en|ru|he', help: 'language of bot messages' },
  plan: { type: 'string', placeholder: 'free|pro', help: 'plan, which sets the limits' },
  features: { type: 'string', placeholder: 'a,b|all|none', help: `enabled features: ${FEATURES.join(', ')}` },
  blocked: { type: 'string', placeholder: 'true|false', help: 'a blocked guild is refused by the API' },
} as const satisfies FlagSpec;

/** Platform ids are random where the operator does not care, as the platform would issue them. */
const randomSnowflake = () => `1${String(randomInt(0, 2 ** 47)).padStart(18, '0')}`;

function features(value: string): Feature[] {
  if (value.trim() === 'none' || value.trim() === '') return [];
  const parsed = parseFeatures(value);
  if (parsed.unknown.length > 0) {
    throw usageError('UNKNOWN_FEATURE', `Unknown feature(s): ${parsed.unknown.join(', ')}. Valid: ${FEATURES.join(', ')} (or all, none).`);
  }
  return parsed.features;
}

function settingsFrom(flags: FlagValues<typeof SETTINGS_FLAGS>): GuildChanges {
  const changes: GuildChanges = {
    name: optional(flags.name, (v) => text(v, 'name', 100)),
    locale: optional(flags.locale, (v) => oneOf(v, 'locale', LOCALES)),
    plan: optional(flags.plan, (v) => oneOf(v, 'plan', PLANS)),
    features: optional(flags.features, features),
    blocked: optional(flags.blocked, (v) => oneOf(v, 'blocked', ['true', 'false']) === 'true'),
  };
  return Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
}

/** PLATFORM=discord: the server as Discord shows it (the bot must be in it); name, owner and bot come from there. */
async function createGuildFromPlatform(
  ctx: AdminContext,
  platform: Platform,
  id: string,
  settings: GuildChanges,
  flags: { owner?: string; bot?: string; operator?: string },
): Promise<CommandOutput> {
  if (flags.owner !== undefined || flags.bot !== undefined) {
    throw usageError('NOT_ON_LOCAL_PLATFORM', '--owner and --bot are read from Discord with PLATFORM=discord; leave them out.');
  }
  const server = await platform.getGuild(id);
  if (!server) {
    throw new AdminError('BOT_NOT_IN_GUILD', `The bot is not in server ${id} (or it does not exist): invite the bot first (README, "Discord mode"), then run this again.`);
  }
  const [roles, channels] = await Promise.all([platform.listRoles(id), platform.listChannels(id)]);
  const guild = await createGuild(ctx.db, {
    id,
    name: settings.name ?? server.name.slice(0, 100),
    icon: server.icon,
    locale: settings.locale ?? 'en',
    plan: settings.plan ?? 'free',
    features: settings.features ?? [],
    blocked: settings.blocked ?? false,
    ownerId: server.ownerId,
    botUserId: server.botUserId,
    actor: operatorActor(ctx, flags.operator),
  });
  const view = await guildView(ctx.db, ctx.clock, guild);
  const discord = { roleCount: roles.length, channelCount: channels.length, memberCount: server.approximateMemberCount };
  return {
    json: { ...(view.json as object), discord },
    text: [...view.text, `  discord   ${discord.roleCount} roles, ${discord.channelCount} channels, about ${discord.memberCount} members`],
  };
}

async function guildView(db: Kysely<Database>, clock: Clock, guild: GuildRecord): Promise<CommandOutput> {
  const limits = PLAN_LIMITS[guild.plan];
  const activeKeyCount = await countActiveApiKeys(db, guild.id, clock.now());
  const ownerId = (await findPlatformGuild(db, guild.id))?.owner_id ?? null;
  return {
    json: { ...guild, ownerId, limits, activeKeyCount },
    text: [
      `Guild ${guild.id} "${guild.name}"`,
      `  plan      ${guild.plan} (limits: API keys ${limits.activeApiKeys}, webhook endpoints ${limits.webhookEndpoints})`,
      `  api keys  ${activeKeyCount} of ${limits.activeApiKeys} active`,
      `  locale    ${guild.locale}`,
      `  features  ${listOrAll(guild.features, FEATURES).replaceAll(',', ', ')}`,
      `  blocked   ${guild.blocked}`,
      `  owner     ${ownerId ?? '-'}`,
    ],
  };
}

export const guildGroup: CommandGroup = {
  name: 'guild',
  summary: 'register and configure guilds',
  commands: [
    defineCommand({
      name: 'create',
      summary: 'register a guild (on Discord: read from the server the bot is in; on the local platform: the server with its owner and bot)',
      flags: {
        ...ID_FLAG,
        ...SETTINGS_FLAGS,
        owner: { type: 'string', placeholder: 'USER_ID', help: 'owner user id (default: a generated one)' },
        bot: { type: 'string', placeholder: 'USER_ID', help: "the bot's user id (default: a generated one)" },
        ...OPERATOR_FLAG,
      },
      async run(flags, ctx) {
        const id = snowflake(flags.id, 'id');
        const settings = settingsFrom(flags);
        if (ctx.platform) return createGuildFromPlatform(ctx, ctx.platform, id, settings, flags);
        const guild = await createGuild(ctx.db, {
          id,
          name: settings.name ?? `Guild ${id}`,
          icon: null,
          locale: settings.locale ?? 'en',
          plan: settings.plan ?? 'free',
          features: settings.features ?? [],
          blocked: settings.blocked ?? false,
          ownerId: optional(flags.owner, (v) => snowflake(v, 'owner')) ?? randomSnowflake(),
          botUserId: optional(flags.bot, (v) => snowflake(v, 'bot')) ?? randomSnowflake(),
          actor: operatorActor(ctx, flags.operator),
        });
        return guildView(ctx.db, ctx.clock, guild);
      },
    }),
    defineCommand({
      name: 'update',
      summary: "change a guild's name, locale, plan, features or block",
      flags: { ...ID_FLAG, ...SETTINGS_FLAGS, ...OPERATOR_FLAG },
      async run(flags, ctx) {
        const id = snowflake(flags.id, 'id');
        const changes = settingsFrom(flags);
        if (Object.keys(changes).length === 0) {
          throw usageError('NOTHING_TO_CHANGE', 'Nothing to change: give --name, --locale, --plan, --features or --blocked.');
        }
        const guild = await changeGuild(ctx.db, id, changes, operatorActor(ctx, flags.operator));
        return guildView(ctx.db, ctx.clock, guild);
      },
    }),
    defineCommand({
      name: 'show',
      summary: 'show a guild with its plan limits and active API key count',
      flags: ID_FLAG,
      async run(flags, ctx) {
        const id = snowflake(flags.id, 'id');
        return guildView(ctx.db, ctx.clock, await requireGuild(ctx.db, id));
      },
    }),
  ],
};
