import { COMMAND_DEFINITIONS } from '../bot/commands/commandTable.js';
import { syncCommands, type CommandChange } from '../../src/platform/discord/commandSync.js';
import { optional, snowflake } from './args.js';
import { defineCommand, type CommandGroup } from './command.js';
import { AdminError } from './errors.js';

const MARK: Record<CommandChange, string> = { added: '+', changed: '~', removed: '-', unchanged: '=' };

export const discordGroup: CommandGroup = {
  name: 'discord',
  summary: "the bot's application on Discord (PLATFORM=discord)",
  commands: [
    defineCommand({
      name: 'commands sync',
      summary: "register the bot's slash commands and context menus on Discord: written only when they differ from what Discord has",
      flags: {
        guild: { type: 'string', placeholder: 'ID', help: "one server's commands instead of the global ones (they show at once: for development)" },
      },
      async run(flags, ctx) {
        if (!ctx.applicationCommands) {
          throw new AdminError('NOT_ON_DISCORD', 'Commands are registered on Discord: run this with PLATFORM=discord and DISCORD_TOKEN set.');
        }
        const guildId = optional(flags.guild, (v) => snowflake(v, 'guild'));
        const result = await syncCommands(ctx.applicationCommands, [...COMMAND_DEFINITIONS], guildId);
        const counts = (['added', 'changed', 'removed', 'unchanged'] as const).map((c) => `${result.commands.filter((x) => x.change === c).length} ${c}`);
        const where = guildId === undefined ? 'global commands' : `commands of server ${guildId}`;
        return {
          json: result,
          text: [
            `${result.written ? 'Synced' : 'Already in sync:'} ${where} of application ${result.applicationId} (${counts.join(', ')})`,
            ...result.commands.map((c) => `  ${MARK[c.change]} ${c.type === 'slash' ? `/${c.name}` : `"${c.name}" (${c.type} menu)`}  ${c.change}`),
          ],
        };
      },
    }),
  ],
};
