import { changeTicketSettings, type TicketSettings } from '../../src/tickets/changeTicketSettings.js';
import { oneOf, optional, snowflake } from './args.js';
import { defineCommand, GUILD_FLAG, OPERATOR_FLAG, operatorActor, type CommandGroup } from './command.js';
import { requireGuild } from './requireGuild.js';
import { ticketPanelCommands } from './ticketPanelCommands.js';

// A server's ticket settings, as staff set them in the console: the log channel of ticket closes and transcripts;
// and its ticket panels (ticketPanelCommands.ts).

const view = (guildId: string, s: TicketSettings) => ({ guildId, logChannelId: s.logChannelId, transcripts: s.transcripts });

export const ticketGroup: CommandGroup = {
  name: 'tickets',
  summary: "a server's ticket settings and ticket panels",
  commands: [
    defineCommand({
      name: 'settings',
      summary: 'show or change the ticket settings (log channel, transcripts); without a change, shows them',
      flags: {
        ...GUILD_FLAG,
        'log-channel': { type: 'string', placeholder: 'ID|none', help: 'where ticket closes are logged (none: no log line)' },
        transcripts: { type: 'string', placeholder: 'on|off', help: 'save transcripts when tickets close' },
        ...OPERATOR_FLAG,
      },
      async run(flags, ctx) {
        const guildId = snowflake(flags.guild, 'guild');
        const logChannelId = optional(flags['log-channel'], (v) => (v === 'none' ? null : snowflake(v, 'log-channel')));
        const transcripts = optional(flags.transcripts, (v) => oneOf(v, 'transcripts', ['on', 'off'] as const) === 'on');
        await requireGuild(ctx.db, guildId);
        const settings = await ctx.db
          .transaction()
          .execute((trx) => changeTicketSettings(trx, { guildId, logChannelId, transcripts, actor: operatorActor(ctx, flags.operator) }));
        return {
          json: view(guildId, settings),
          text: [
            `Ticket settings of guild ${guildId}: log channel ${settings.logChannelId ?? 'none'}, transcripts ${settings.transcripts ? 'on' : 'off'}.`,
          ],
        };
      },
    }),
    ...ticketPanelCommands,
  ],
};
