import { commandListErrors } from './commandValidation.js';
import { discordError, type FakeAnswer } from './faults.js';
import { botGuildPermissions } from './permissions.js';
import type { FakeRoute } from './fakeRoute.js';
import type { FakeDiscordState } from './state.js';

// The application's commands as Discord keeps them: global, and per server. A bulk overwrite (PUT) replaces the
// whole list of its scope, keeping the id of a command whose type and name stay
// (https://docs.discord.com/developers/interactions/application-commands#bulk-overwrite-global-application-commands);
// a refused list changes nothing.

type Json = Record<string, unknown>;

export interface FakeCommand extends Json {
  id: string;
  application_id: string;
  guild_id?: string;
  version: string;
  type: number;
  name: string;
  description: string;
  default_member_permissions: string | null;
}

interface Registry {
  global: FakeCommand[];
  guilds: Map<string, FakeCommand[]>;
}

const registries = new WeakMap<FakeDiscordState, Registry>();

function registryOf(state: FakeDiscordState): Registry {
  let r = registries.get(state);
  if (!r) registries.set(state, (r = { global: [], guilds: new Map() }));
  return r;
}

/** The commands registered in a scope (global without `guildId`), as GET answers them. */
export function registeredCommands(state: FakeDiscordState, guildId?: string): FakeCommand[] {
  const r = registryOf(state);
  return guildId === undefined ? r.global : (r.guilds.get(guildId) ?? []);
}

/** Discord answers options without the `false` flags it defaults. */
function stored(option: Json): Json {
  const { required, autocomplete, options, ...rest } = option;
  return {
    ...rest,
    ...(required === true ? { required } : {}),
    ...(autocomplete === true ? { autocomplete } : {}),
    ...(Array.isArray(options) ? { options: (options as Json[]).map(stored) } : {}),
  };
}

function overwrite(state: FakeDiscordState, body: Json[], guildId: string | undefined): FakeCommand[] {
  const before = registeredCommands(state, guildId);
  const list = body.map((cmd): FakeCommand => {
    const type = (cmd.type as number | undefined) ?? 1;
    const previous = before.find((p) => p.type === type && p.name === cmd.name);
    const { options, contexts: _contexts, integration_types: _types, ...rest } = cmd;
    return {
      ...rest,
      id: previous?.id ?? state.nextId(),
      application_id: state.bot.id,
      ...(guildId === undefined ? { contexts: (cmd.contexts as number[] | undefined) ?? null, integration_types: (cmd.integration_types as number[] | undefined) ?? [0] } : { guild_id: guildId }),
      version: state.nextId(),
      type,
      name: String(cmd.name),
      description: String(cmd.description ?? ''),
      default_member_permissions: (cmd.default_member_permissions as string | null | undefined) ?? null,
      nsfw: cmd.nsfw === true,
      ...(Array.isArray(options) && options.length > 0 ? { options: (options as Json[]).map(stored) } : {}),
    };
  });
  const r = registryOf(state);
  if (guildId === undefined) r.global = list;
  else r.guilds.set(guildId, list);
  return list;
}

/** The application in the path is the bot's; a server's commands need the bot (its application) in that server. */
function scope(state: FakeDiscordState, params: Record<string, string>): FakeAnswer | undefined {
  if (params.application !== state.bot.id) return discordError(404, 10002, 'Unknown Application');
  if (params.guild === undefined) return undefined;
  const guild = state.guilds.get(params.guild);
  return guild && botGuildPermissions(state, guild) !== null ? undefined : discordError(403, 50001, 'Missing Access');
}

const put =
  (global: boolean) =>
  (state: FakeDiscordState, req: { params: Record<string, string>; body: unknown }): FakeAnswer => {
    const refused = scope(state, req.params);
    if (refused) return refused;
    const errors = commandListErrors(req.body, global);
    if (errors) return { status: 400, body: { message: 'Invalid Form Body', code: 50035, errors } };
    return { status: 200, body: overwrite(state, req.body as Json[], req.params.guild) };
  };

const get = (state: FakeDiscordState, req: { params: Record<string, string> }): FakeAnswer =>
  scope(state, req.params) ?? { status: 200, body: registeredCommands(state, req.params.guild) };

export const COMMAND_ROUTES: FakeRoute[] = [
  { method: 'GET', pattern: '/applications/@me', handler: (state) => ({ status: 200, body: { id: state.bot.id, name: state.bot.username, bot: state.bot } }) },
  { method: 'GET', pattern: '/applications/:application/commands', handler: get },
  { method: 'PUT', pattern: '/applications/:application/commands', handler: put(true) },
  { method: 'GET', pattern: '/applications/:application/guilds/:guild/commands', handler: get },
  { method: 'PUT', pattern: '/applications/:application/guilds/:guild/commands', handler: put(false) },
];
