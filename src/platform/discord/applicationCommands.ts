import { Routes, type APIApplication, type APIApplicationCommand, type RESTPutAPIApplicationCommandsJSONBody } from 'discord-api-types/v10';
import { systemClock } from '../../core/clock.js';
import { createLogger } from '../../core/logger.js';
import { createBanLatch, latchedRest, type BanLatch } from './banLatch.js';
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

export function createApplicationCommands(options: { token: string; apiUrl: string; latch?: BanLatch }): ApplicationCommands {
  const latch = options.latch ?? createBanLatch({ clock: systemClock, logger: createLogger('silent', 'discord') });
  const rest = latchedRest({ api: options.apiUrl, version: '10', retries: 0, timeout: 15_000 }, latch).setToken(options.token);
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
