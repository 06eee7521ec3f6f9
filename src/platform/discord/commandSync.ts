import { ApplicationCommandType } from 'discord-api-types/v10';
import type { ApplicationCommands, CommandDefinition } from './applicationCommands.js';

export type CommandChange = 'added' | 'changed' | 'removed' | 'unchanged';

export interface CommandSyncResult {
  scope: { guildId: string | null };
  applicationId: string;
  /** Whether the list was written (a bulk overwrite): only when something differed. */
  written: boolean;
  commands: Array<{ name: string; type: 'slash' | 'user' | 'message'; change: CommandChange }>;
}

type Json = Record<string, unknown>;
const TYPE_NAMES = { [ApplicationCommandType.ChatInput]: 'slash', [ApplicationCommandType.User]: 'user', [ApplicationCommandType.Message]: 'message' } as const;

/** The fields a definition sets, with Discord's defaults, so a definition and what Discord answers compare equal. */
function option(o: Json): Json {
  const pick = ['choices', 'min_value', 'max_value', 'min_length', 'max_length', 'channel_types'] as const;
  return {
    type: o.type,
    name: o.name,
    description: o.description,
    required: o.required === true,
    autocomplete: o.autocomplete === true,
    ...Object.fromEntries(pick.filter((k) => o[k] !== undefined).map((k) => [k, o[k]])),
    options: ((o.options as Json[] | undefined) ?? []).map(option),
  };
}

function canonical(c: Json, global: boolean): string {
  const shape = {
    type: (c.type as number | undefined) ?? ApplicationCommandType.ChatInput,
    name: c.name,
    description: (c.description as string | undefined) ?? '',
    options: ((c.options as Json[] | undefined) ?? []).map(option),
    default_member_permissions: (c.default_member_permissions as string | null | undefined) ?? null,
    nsfw: c.nsfw === true,
    // Contexts and install types exist for global commands only.
    ...(global ? { contexts: (c.contexts as number[] | null | undefined) ?? null, integration_types: (c.integration_types as number[] | undefined) ?? [0] } : {}),
  };
  return JSON.stringify(shape, (_, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v));
}

const keyOf = (c: Json) => `${(c.type as number | undefined) ?? ApplicationCommandType.ChatInput}:${String(c.name)}`;

/**
 * Makes Discord's list of the application's commands (global, or one server's) what `wanted` declares: read first,
 * and written (one bulk overwrite) only when some command was added, changed or removed, so a second run changes
 * nothing and spends no write (Discord limits command creations per day).
 */
export async function syncCommands(client: ApplicationCommands, wanted: CommandDefinition[], guildId?: string): Promise<CommandSyncResult> {
  const global = guildId === undefined;
  const definitions = global ? wanted : wanted.map(({ contexts: _c, integration_types: _i, ...rest }) => rest as CommandDefinition);
  const applicationId = await client.applicationId();
  const registered = new Map((await client.list(applicationId, guildId)).map((c) => [keyOf(c as unknown as Json), c as unknown as Json]));
  const commands: CommandSyncResult['commands'] = definitions.map((d) => {
    const json = d as unknown as Json;
    const before = registered.get(keyOf(json));
    registered.delete(keyOf(json));
    const change: CommandChange = !before ? 'added' : canonical(before, global) === canonical(json, global) ? 'unchanged' : 'changed';
    return { name: d.name, type: TYPE_NAMES[(d.type ?? ApplicationCommandType.ChatInput) as 1 | 2 | 3], change };
  });
  for (const gone of registered.values()) commands.push({ name: String(gone.name), type: TYPE_NAMES[gone.type as 1 | 2 | 3] ?? 'slash', change: 'removed' });
  const written = commands.some((c) => c.change !== 'unchanged');
  if (written) await client.overwrite(applicationId, guildId, definitions);
  return { scope: { guildId: guildId ?? null }, applicationId, written, commands };
}
