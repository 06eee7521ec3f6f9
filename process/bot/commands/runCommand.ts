import type {
  APIApplicationCommandAutocompleteInteraction,
  APIApplicationCommandInteraction,
  APIInteractionGuildMember,
  APIMessage,
  APIUser,
} from 'discord-api-types/v10';
import { findGuild } from '../../../db/guild/guilds.js';
import { claimInteraction } from '../../../db/platform/interactions.js';
import { toMember } from '../../../src/platform/discord/discordShapes.js';
import type { BotDeps } from '../handler.js';
import { answerInteraction } from '../interactions/answerInteraction.js';
import type { BotCommand, CommandUse } from './command.js';
import { CommandOptions, resolvedMember } from './commandOptions.js';
import { findBotCommand } from './commandTable.js';
import { featureOffAnswer, missingPermissionAnswer, NOT_SERVED_ANSWER, refusalAnswer } from './refusalAnswers.js';
import { firstChoices } from './choices.js';

export const UNKNOWN_COMMAND_ANSWER = 'This command is no longer in use.';
export const SERVER_ONLY_ANSWER = 'This command works in a server only.';

type CommandInteraction = APIApplicationCommandInteraction | APIApplicationCommandAutocompleteInteraction;

/** The interaction as a command's use; undefined outside a server (contexts keep commands there, but a DM is possible). */
function useOf(deps: BotDeps, i: CommandInteraction): CommandUse | undefined {
  if (!i.guild_id || !i.member) return undefined;
  const member = i.member as APIInteractionGuildMember;
  const data = i.data as { options?: never; resolved?: never; target_id?: string; type: number };
  const resolved = data.resolved as { users?: Record<string, APIUser>; messages?: Record<string, APIMessage> } | undefined;
  const message = data.target_id ? resolved?.messages?.[data.target_id] : undefined;
  const user = data.target_id && data.type === 2 ? data.target_id : undefined;
  return {
    deps,
    ref: { id: i.id, token: i.token, applicationId: i.application_id },
    interactionId: i.id,
    guildId: i.guild_id,
    channelId: i.channel?.id ?? (i as { channel_id?: string }).channel_id ?? '',
    userId: member.user.id,
    member: toMember(i.guild_id, member),
    permissions: BigInt(member.permissions),
    options: new CommandOptions(i.guild_id, data.options, data.resolved),
    targetUser: user ? { userId: user, member: resolvedMember(i.guild_id, data.resolved, user) } : undefined,
    targetMessage: message ? { id: message.id, channelId: message.channel_id, authorId: message.author.id, content: message.content } : undefined,
  };
}

/** Why the command cannot be used here by this member now, in words; undefined when it can. */
async function refusal(command: BotCommand, use: CommandUse): Promise<string | undefined> {
  const guild = await findGuild(use.deps.db, use.guildId);
  if (!guild || guild.blocked) return NOT_SERVED_ANSWER;
  const feature = typeof command.feature === 'function' ? command.feature(use.options) : command.feature;
  if (feature && !guild.features.includes(feature)) return featureOffAnswer(feature);
  if (command.requires && (use.permissions & command.requires.permission) !== command.requires.permission) return missingPermissionAnswer(command.requires.name);
  return undefined;
}

/** A read's use is claimed on its own, so a replayed dispatch answers nothing twice; a write claims in its own transaction. */
async function claimed(use: CommandUse): Promise<boolean> {
  return use.deps.db.transaction().execute((trx) => claimInteraction(trx, use.interactionId, use.guildId, use.deps.clock.now()));
}

/**
 * An APPLICATION_COMMAND interaction (a slash command or a context menu): the command's checks (the server served,
 * the feature on, the invoker's permissions), then its work, answered within Discord's 3 s by answerInteraction.
 */
export async function runCommand(deps: BotDeps, i: APIApplicationCommandInteraction): Promise<void> {
  const ref = { id: i.id, token: i.token, applicationId: i.application_id };
  const command = findBotCommand(i.data.type, i.data.name);
  const use = useOf(deps, i);
  if (!command) return answerInteraction(deps, ref, async () => UNKNOWN_COMMAND_ANSWER);
  if (!use) return answerInteraction(deps, ref, async () => SERVER_ONLY_ANSWER);
  if (command.respond) {
    // A dialog must be the first answer, so nothing is deferred: the checks are short reads.
    const refused = await refusal(command, use);
    if (refused) return deps.replies.reply(ref, refused);
    return command.respond(use);
  }
  return answerInteraction(deps, ref, async () => {
    const refused = await refusal(command, use);
    if (refused) return (await claimed(use)) ? refused : null;
    if (!command.claimsItself && !(await claimed(use))) return null;
    return command.run!(use).catch(refusalAnswer);
  });
}

/** An APPLICATION_COMMAND_AUTOCOMPLETE interaction: suggestions for the option being typed (none when the command cannot be used). */
export async function completeCommand(deps: BotDeps, i: APIApplicationCommandAutocompleteInteraction): Promise<void> {
  const command = findBotCommand(i.data.type, i.data.name);
  const use = useOf(deps, i);
  const ref = { id: i.id, token: i.token, applicationId: i.application_id };
  if (!command?.complete || !use || (await refusal(command, use))) return deps.replies.autocomplete(ref, []);
  const typed = use.options.string(use.options.focused ?? '') ?? '';
  return deps.replies.autocomplete(ref, firstChoices(await command.complete(use, typed)));
}
