import { randomInt } from 'node:crypto';
import { countActiveApiKeys } from '../../db/apiKeys.js';
import { findGuild, type GuildChanges, type GuildRecord } from '../../db/guilds.js';
import { parseFeatures } from '../domain/features.js';
import { PLAN_LIMITS, PLANS } from '../domain/plans.js';
import { changeGuild, createGuild } from '../guilds/guildManagement.js';
import { booleanFlag, oneOf, parseFlags, snowflakeFlag } from './args.js';
import type { AdminCommand, AdminContext } from './context.js';
import { AdminError, asAdminError, print, usageError } from './io.js';

const LOCALES = ['en', 'ru', 'he'] as const;
const FLAGS = {
  id: { type: 'string' },
  name: { type: 'string' },
  locale: { type: 'string' },
  plan: { type: 'string' },
  features: { type: 'string' },
  blocked: { type: 'string' },
  owner: { type: 'string' },
  bot: { type: 'string' },
} as const;

const randomSnowflake = () => `1${String(randomInt(0, 2 ** 47)).padStart(18, '0')}`;

function featuresFlag(value: string | undefined) {
  if (value === undefined) return undefined;
  const { features, unknown } = parseFeatures(value);
  if (unknown.length > 0) throw usageError(`Unknown feature(s): ${unknown.join(', ')}. Known: ${parseFeatures('all').features.join(', ')}, or all.`);
  return features;
}

function changesFrom(flags: ReturnType<typeof parseFlags<typeof FLAGS>>): GuildChanges {
  const changes: GuildChanges = {
    name: flags.name,
    locale: oneOf(flags.locale, 'locale', LOCALES),
    plan: oneOf(flags.plan, 'plan', PLANS),
    features: featuresFlag(flags.features),
    blocked: booleanFlag(flags.blocked, 'blocked'),
  };
  return Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as GuildChanges;
}

async function show(ctx: AdminContext, guild: GuildRecord, json: boolean) {
  const activeKeys = await countActiveApiKeys(ctx.db, guild.id, ctx.clock.now());
  const view = { ...guild, limits: PLAN_LIMITS[guild.plan], activeKeys };
  print(ctx.io, json, view, () => [
    `Guild ${guild.id} "${guild.name}"`,
    `  plan      ${guild.plan} (${activeKeys}/${view.limits.activeApiKeys} active API keys)`,
    `  locale    ${guild.locale}`,
    `  features  ${guild.features.join(', ') || '(none)'}`,
    `  blocked   ${guild.blocked}`,
  ]);
}

export const guildCommands: Record<string, AdminCommand> = {
  async create(argv, ctx) {
    const flags = parseFlags(argv, FLAGS);
    const id = snowflakeFlag(flags.id, 'id');
    const changes = changesFrom(flags);
    const guild = await createGuild(ctx.db, {
      id,
      name: changes.name ?? `Guild ${id}`,
      icon: null,
      locale: changes.locale ?? 'en',
      plan: changes.plan ?? 'free',
      features: changes.features ?? [],
      blocked: changes.blocked ?? false,
      ownerId: flags.owner ? snowflakeFlag(flags.owner, 'owner') : randomSnowflake(),
      botUserId: flags.bot ? snowflakeFlag(flags.bot, 'bot') : randomSnowflake(),
      actor: ctx.operator,
    }).catch(asAdminError);
    await show(ctx, guild, flags.json ?? false);
  },
  async update(argv, ctx) {
    const flags = parseFlags(argv, FLAGS);
    const id = snowflakeFlag(flags.id, 'id');
    const changes = changesFrom(flags);
    if (Object.keys(changes).length === 0) throw usageError('Nothing to change: pass --name, --locale, --plan, --features or --blocked.');
    const guild = await changeGuild(ctx.db, id, changes, ctx.operator).catch(asAdminError);
    await show(ctx, guild, flags.json ?? false);
  },
  async show(argv, ctx) {
    const flags = parseFlags(argv, { id: { type: 'string' } });
    const id = snowflakeFlag(flags.id, 'id');
    const guild = await findGuild(ctx.db, id);
    if (!guild) throw new AdminError('GUILD_NOT_FOUND', `Guild ${id} does not exist.`);
    await show(ctx, guild, flags.json ?? false);
  },
};
