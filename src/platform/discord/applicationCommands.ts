import type { REST } from '@discordjs/rest';
import { Routes, type APIApplication, type APIApplicationCommand, type RESTPutAPIApplicationCommandsJSONBody } from 'discord-api-types/v10';
import { translateDiscordError } from './discordErrors.js';

/** One command as the application declares it (a slash command or a context menu). */
export type CommandDefinition = RESTPutAPIApplicationCommandsJSONBody[number];

/** A command as Discord has it registered (with its id, version and Discord's defaults filled in). */
export type RegisteredCommand = APIApplicationCommand;

/**
 * The application's commands on Discord: global, or one server's (`guildId`, which shows changes at once and is
 * meant for development). `overwrite` replaces the whole list of the scope in one request (bulk overwrite).
 */
export interface ApplicationCommands {
  applicationId(): Promise<string>;
  list(applicationId: string, guildId?: string): Promise<RegisteredCommand[]>;
  overwrite(applicationId: string, guildId: string | undefined, commands: CommandDefinition[]): Promise<RegisteredCommand[]>;
}

/** On the process's one REST client (discordRest.ts): the sync waits for the same buckets and ban latch as the rest. */
export function createApplicationCommands(rest: REST): ApplicationCommands {
  const call = async <T>(what: string, run: () => Promise<unknown>): Promise<T> => {
    try {
      return (await run()) as T;
    } catch (err) {
      throw translateDiscordError(err, what);
    }
  };
  const route = (applicationId: string, guildId?: string) =>
    guildId === undefined ? Routes.applicationCommands(applicationId) : Routes.applicationGuildCommands(applicationId, guildId);
  return {
    applicationId: async () => (await call<APIApplication>('reading the application', () => rest.get(Routes.currentApplication()))).id,
    list: (applicationId, guildId) => call('listing the application commands', () => rest.get(route(applicationId, guildId))),
    overwrite: (applicationId, guildId, commands) => call('registering the application commands', () => rest.put(route(applicationId, guildId), { body: commands })),
  };
}
