import { ApplicationCommandOptionType as O, ApplicationCommandType as T, InteractionType, PermissionFlagsBits as P } from 'discord-api-types/v10';
import { registeredCommands, type FakeCommand } from './commandRoutes.js';
import { botGuildPermissions } from './permissions.js';
import { interactionSnowflake, type FakeDiscordState, type FakeGuild } from './state.js';

// INTERACTION_CREATE of an application command as Discord's client makes it: only for a command registered in that
// server (or globally, where its contexts allow a server), only for a member who may see it (default_member_permissions,
// unless the server's Integrations settings opened it to them), with the options the definition allows, integers
// within their bounds, the users and messages they name resolved, and the member's permissions computed from roles.

type Json = Record<string, unknown>;
type Value = string | number | boolean;

export interface CommandUse {
  guildId: string;
  userId: string;
  channelId?: string;
  /** The command's name (a context menu's label). */
  name: string;
  type?: typeof T.ChatInput | typeof T.User | typeof T.Message;
  /** A sub-command's name, when the command has them. */
  subcommand?: string;
  options?: Record<string, Value>;
  /** The user or message a context menu was used on. */
  targetId?: string;
  /**
   * A server manager allowed the command for everyone in the server's Integrations settings: Discord then shows it
   * whatever default_member_permissions says, so the bot must check the invoker's permissions itself.
   */
  permissionsOverridden?: boolean;
  /** When the member used it (the interaction id's time); the fake's clock by default. */
  at?: Date;
}

const ALL = (1n << 64n) - 1n;

/** What a member holds in the server: everything for the owner and Administrator, else the everyone role and theirs. */
export function memberPermissions(guild: FakeGuild, userId: string): bigint {
  if (guild.ownerId === userId) return ALL;
  const held = new Set([guild.id, ...(guild.members.get(userId)?.roles ?? [])]);
  const bits = [...guild.roles.values()].filter((r) => held.has(r.id)).reduce((all, r) => all | BigInt(r.permissions), 0n);
  return bits & P.Administrator ? ALL : bits;
}

function findCommand(state: FakeDiscordState, use: CommandUse): FakeCommand {
  const type = use.type ?? T.ChatInput;
  const match = (c: FakeCommand) => c.type === type && c.name === use.name;
  const inGuild = registeredCommands(state, use.guildId).find(match);
  const global = registeredCommands(state).find((c) => match(c) && (c.contexts == null || (c.contexts as number[]).includes(0)));
  const command = inGuild ?? global;
  if (!command) throw new Error(`Discord shows no command "${use.name}" (type ${type}) in server ${use.guildId}: it is not registered there.`);
  return command;
}

function userOf(state: FakeDiscordState, guild: FakeGuild, id: string) {
  const user = state.users.get(id);
  if (!user) throw new Error(`Discord knows no user ${id}.`);
  const { user: _, ...member } = guild.members.get(id) ?? {};
  return { user, member: guild.members.has(id) ? { ...member, permissions: String(memberPermissions(guild, id)) } : undefined };
}

/**
 * A channel option's channel as Discord resolves it: one of the server's, of a type the option allows (channel_types),
 * with the invoker's permissions (the fake keeps no overwrites: their server-wide ones).
 */
function channelOf(guild: FakeGuild, d: Json, id: string, invokerId: string): Json {
  const channel = guild.channels.get(id);
  if (!channel) throw new Error(`Discord's client offers no channel ${id} of server ${guild.id} for "${String(d.name)}".`);
  const allowed = d.channel_types as number[] | undefined;
  if (allowed && !allowed.includes(channel.type)) throw new Error(`Discord's client offers only channels of types ${allowed.join(', ')} for "${String(d.name)}", not ${channel.type}.`);
  return { id, name: channel.name, type: channel.type, parent_id: (channel as { parent_id?: string | null }).parent_id ?? null, permissions: String(memberPermissions(guild, invokerId)) };
}

/** The options as Discord's client sends them: each checked against its definition; `focused` marks autocomplete's. */
function optionsOf(state: FakeDiscordState, guild: FakeGuild, use: CommandUse, defs: Json[], focused: string | undefined, resolved: Json) {
  const given = use.options ?? {};
  for (const name of Object.keys(given)) if (!defs.some((d) => d.name === name)) throw new Error(`The command has no option "${name}".`);
  const out: Json[] = [];
  for (const d of defs) {
    const value = given[d.name as string];
    if (value === undefined) {
      if (d.required === true && focused === undefined) throw new Error(`Option "${String(d.name)}" is required.`);
      continue;
    }
    const type = d.type as number;
    if (type === O.Integer && (!Number.isInteger(value) || (typeof d.min_value === 'number' && (value as number) < d.min_value) || (typeof d.max_value === 'number' && (value as number) > d.max_value))) {
      throw new Error(`Discord's client takes no ${String(value)} for "${String(d.name)}" (${String(d.min_value)} to ${String(d.max_value)}).`);
    }
    if (Array.isArray(d.choices) && !(d.choices as Json[]).some((c) => c.value === value)) throw new Error(`"${String(value)}" is not a choice of "${String(d.name)}".`);
    if (type === O.String && ((typeof d.min_length === 'number' && String(value).length < d.min_length) || (typeof d.max_length === 'number' && String(value).length > d.max_length))) {
      if (focused !== d.name) throw new Error(`Discord's client takes ${String(d.min_length ?? 0)} to ${String(d.max_length ?? 6_000)} characters for "${String(d.name)}".`);
    }
    if (type === O.Channel) ((resolved.channels ??= {}) as Json)[String(value)] = channelOf(guild, d, String(value), use.userId);
    if (type === O.User) {
      const { user, member } = userOf(state, guild, String(value));
      ((resolved.users ??= {}) as Json)[user.id] = user;
      if (member) ((resolved.members ??= {}) as Json)[user.id] = member;
    }
    out.push({ name: d.name, type, value, ...(focused === d.name ? { focused: true } : {}) });
  }
  return out;
}

function commandData(state: FakeDiscordState, guild: FakeGuild, command: FakeCommand, use: CommandUse, focused?: string): Json {
  const resolved: Json = {};
  const base = { id: command.id, name: command.name, type: command.type, guild_id: command.guild_id };
  if (command.type === T.User || command.type === T.Message) {
    if (!use.targetId) throw new Error('A context menu is used on a user or a message: give targetId.');
    if (command.type === T.User) {
      const { user, member } = userOf(state, guild, use.targetId);
      return { ...base, target_id: use.targetId, resolved: { users: { [user.id]: user }, ...(member ? { members: { [user.id]: member } } : {}) } };
    }
    const message = state.messages.get(use.targetId);
    if (!message) throw new Error(`Discord knows no message ${use.targetId}.`);
    return { ...base, target_id: use.targetId, resolved: { messages: { [message.id]: message } } };
  }
  const defs = (command.options ?? []) as Json[];
  const sub = use.subcommand === undefined ? undefined : defs.find((d) => d.type === O.Subcommand && d.name === use.subcommand);
  if (use.subcommand !== undefined && !sub) throw new Error(`/${command.name} has no sub-command "${use.subcommand}".`);
  if (use.subcommand === undefined && defs.some((d) => d.type === O.Subcommand)) throw new Error(`/${command.name} is used through one of its sub-commands.`);
  const options = optionsOf(state, guild, use, (sub?.options ?? (sub ? [] : defs)) as Json[], focused, resolved);
  return { ...base, options: sub ? [{ name: sub.name, type: O.Subcommand, options }] : options, ...(Object.keys(resolved).length > 0 ? { resolved } : {}) };
}

function interaction(state: FakeDiscordState, use: CommandUse, type: InteractionType, focused?: string) {
  const guild = state.guilds.get(use.guildId);
  if (!guild) throw new Error(`The fake has no guild ${use.guildId}.`);
  const member = guild.members.get(use.userId);
  if (!member) throw new Error(`${use.userId} is not a member of ${use.guildId}.`);
  const command = findCommand(state, use);
  const permissions = memberPermissions(guild, use.userId);
  const needed = command.default_member_permissions === null ? 0n : BigInt(command.default_member_permissions);
  if (!use.permissionsOverridden && (permissions & needed) !== needed) {
    throw new Error(`Discord hides "${command.name}" from ${use.userId}: they lack its default_member_permissions.`);
  }
  const id = interactionSnowflake((use.at ?? new Date(state.now())).getTime());
  return {
    id,
    application_id: state.bot.id,
    type,
    token: `token-${id}`,
    version: 1,
    guild_id: guild.id,
    channel_id: use.channelId ?? [...guild.channels.keys()][0] ?? guild.id,
    member: { ...member, permissions: String(permissions) },
    data: commandData(state, guild, command, use, focused),
    locale: 'en-US',
    guild_locale: 'en-US',
    app_permissions: String(botGuildPermissions(state, guild) ?? 0n),
    entitlements: [],
    authorizing_integration_owners: { '0': guild.id },
    context: 0,
  };
}

/** An APPLICATION_COMMAND interaction (slash command or context menu) as the gateway delivers it. */
export function commandInteraction(state: FakeDiscordState, use: CommandUse) {
  return interaction(state, use, InteractionType.ApplicationCommand);
}

/** An APPLICATION_COMMAND_AUTOCOMPLETE interaction: the member is typing `focused`, whose partial value is in options. */
export function autocompleteInteraction(state: FakeDiscordState, use: CommandUse & { focused: string }) {
  return interaction(state, use, InteractionType.ApplicationCommandAutocomplete, use.focused);
}
