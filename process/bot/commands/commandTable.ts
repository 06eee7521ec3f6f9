import { ApplicationCommandType, ApplicationIntegrationType, InteractionContextType } from 'discord-api-types/v10';
import type { CommandDefinition } from '../../../src/platform/discord/applicationCommands.js';
import { applyCommand } from './apply.js';
import { balanceCommand } from './balance.js';
import { buyCommand } from './buy.js';
import type { BotCommand } from './command.js';
import { invitesCommand } from './invites.js';
import { leaderboardCommand } from './leaderboard.js';
import { giveawayCommand } from './giveaway.js';
import { banCommand, kickCommand, timeoutCommand, unbanCommand, untimeoutCommand, warnCommand } from './moderationActions.js';
import { caseCommand, moderationHistoryCommand } from './moderationCases.js';
import { rankCommand } from './rank.js';
import { shopCommand } from './shop.js';
import { ticketAboutMessageCommand, ticketCommand } from './ticket.js';

/** Every application command the bot answers, in the order Discord lists them once synced. */
export const BOT_COMMANDS: readonly BotCommand[] = [
  rankCommand,
  leaderboardCommand,
  balanceCommand,
  shopCommand,
  buyCommand,
  invitesCommand,
  ticketCommand,
  applyCommand,
  caseCommand,
  warnCommand,
  timeoutCommand,
  untimeoutCommand,
  kickCommand,
  banCommand,
  unbanCommand,
  giveawayCommand,
  ticketAboutMessageCommand,
  moderationHistoryCommand,
];

/**
 * The definitions `discord commands sync` registers: each command's own, used in servers only (the service keeps
 * everything per server), installed with the bot, and hidden from members without the permissions it requires.
 */
export const COMMAND_DEFINITIONS: readonly CommandDefinition[] = BOT_COMMANDS.map((c) => ({
  ...c.definition,
  contexts: [InteractionContextType.Guild],
  integration_types: [ApplicationIntegrationType.GuildInstall],
  default_member_permissions: c.requires ? String(c.requires.permission) : null,
}));

export function findBotCommand(type: ApplicationCommandType, name: string): BotCommand | undefined {
  return BOT_COMMANDS.find((c) => (c.definition.type ?? ApplicationCommandType.ChatInput) === type && c.definition.name === name);
}
