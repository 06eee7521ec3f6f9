import { InteractionType, type APIInteraction, type APIMessageComponentInteraction } from 'discord-api-types/v10';
import { isInteractionHandled } from '../../../db/platform/interactions.js';
import { parseGiveawayEnterButton } from '../../../src/giveaways/giveawayButtons.js';
import { toMember } from '../../../src/platform/discord/discordShapes.js';
import { parseTicketPanelButton } from '../../../src/tickets/panelButtons.js';
import type { BotDeps, DispatchHandler } from '../handler.js';
import { answerInteraction } from '../interactions/answerInteraction.js';
import { enterFromButton, type ButtonPress } from '../interactions/giveawayEnter.js';
import { openFromPanel } from '../interactions/ticketPanel.js';

export const UNKNOWN_BUTTON_ANSWER = 'This button is no longer in use.';

/** The work a button press asks for, by its custom_id (the formats the areas write: giveawayButtons, panelButtons). */
function buttonWork(deps: BotDeps, press: ButtonPress, customId: string): () => Promise<string | null> {
  const giveawayId = parseGiveawayEnterButton(customId);
  if (giveawayId !== undefined) return () => enterFromButton(deps, press, giveawayId);
  const panelId = parseTicketPanelButton(customId);
  if (panelId !== undefined) return () => openFromPanel(deps, press, panelId);
  return async () => UNKNOWN_BUTTON_ANSWER;
}

/**
 * INTERACTION_CREATE: a button pressed in a server, acknowledged within Discord's 3 s and answered (only to the
 * member who pressed) from the outcome of the use case its `simulate` command calls. An interaction already acted
 * on (a replayed dispatch) is neither acted on nor answered again.
 */
export const interactionCreate: DispatchHandler = async (data, deps) => {
  const d = data as APIInteraction;
  if (d.type !== InteractionType.MessageComponent || !d.guild_id || !d.member) return;
  if (await isInteractionHandled(deps.db, d.id)) return;
  const i = d as APIMessageComponentInteraction & { guild_id: string; member: NonNullable<APIInteraction['member']> };
  const press: ButtonPress = { interactionId: i.id, guildId: i.guild_id, userId: i.member.user.id, member: toMember(i.guild_id, i.member) };
  await answerInteraction(deps, { id: i.id, token: i.token, applicationId: i.application_id }, buttonWork(deps, press, i.data.custom_id));
};
