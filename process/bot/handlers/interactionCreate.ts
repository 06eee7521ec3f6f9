import {
  InteractionType,
  type APIInteraction,
  type APIInteractionGuildMember,
  type APIMessageComponentInteraction,
  type APIModalSubmitInteraction,
} from 'discord-api-types/v10';
import { isInteractionHandled } from '../../../db/platform/interactions.js';
import { parseApplicationApplyButton, parseApplicationFormDialog } from '../../../src/applications/applicationButtons.js';
import { parseGiveawayEnterButton } from '../../../src/giveaways/giveawayButtons.js';
import type { InteractionRef } from '../../../src/platform/discord/interactionReplies.js';
import { toMember } from '../../../src/platform/discord/discordShapes.js';
import { parseTicketPanelButton } from '../../../src/tickets/panelButtons.js';
import type { BotDeps, DispatchHandler } from '../handler.js';
import { answerInteraction } from '../interactions/answerInteraction.js';
import { showApplicationForm, submitFromForm } from '../interactions/applicationForm.js';
import { enterFromButton, type ButtonPress } from '../interactions/giveawayEnter.js';
import { openFromPanel } from '../interactions/ticketPanel.js';

export const UNKNOWN_BUTTON_ANSWER = 'This button is no longer in use.';

type InServer<T> = T & { guild_id: string; member: APIInteractionGuildMember };

/** The buttons the areas put on their messages, by custom_id (giveawayButtons, panelButtons, applicationButtons). */
async function pressButton(deps: BotDeps, ref: InteractionRef, press: ButtonPress, customId: string): Promise<void> {
  const formId = parseApplicationApplyButton(customId);
  if (formId !== undefined) return showApplicationForm(deps, ref, press.guildId, formId);
  const giveawayId = parseGiveawayEnterButton(customId);
  const panelId = parseTicketPanelButton(customId);
  const work =
    giveawayId !== undefined
      ? () => enterFromButton(deps, press, giveawayId)
      : panelId !== undefined
        ? () => openFromPanel(deps, press, panelId)
        : async () => UNKNOWN_BUTTON_ANSWER;
  return answerInteraction(deps, ref, work);
}

/** A dialog's text inputs by custom_id (rows of inputs, or Discord's newer labelled inputs). */
function dialogValues(i: APIModalSubmitInteraction): Map<string, string> {
  const values = new Map<string, string>();
  for (const row of i.data.components as unknown as Array<{ components?: unknown[]; component?: unknown }>) {
    for (const c of (row.components ?? [row.component]) as Array<{ custom_id?: string; value?: string } | undefined>) {
      if (c?.custom_id !== undefined && typeof c.value === 'string') values.set(c.custom_id, c.value);
    }
  }
  return values;
}

/**
 * INTERACTION_CREATE: a button pressed or a dialog submitted in a server, acknowledged within Discord's 3 s and
 * answered (to the member alone) from the outcome of the use case its `simulate` command calls. An interaction
 * already acted on (a replayed dispatch) is neither acted on nor answered again.
 */
export const interactionCreate: DispatchHandler = async (data, deps) => {
  const d = data as APIInteraction;
  const isButton = d.type === InteractionType.MessageComponent;
  if ((!isButton && d.type !== InteractionType.ModalSubmit) || !d.guild_id || !d.member) return;
  if (await isInteractionHandled(deps.db, d.id)) return;
  const i = d as InServer<APIMessageComponentInteraction | APIModalSubmitInteraction>;
  const ref = { id: i.id, token: i.token, applicationId: i.application_id };
  const press: ButtonPress = { interactionId: i.id, guildId: i.guild_id, userId: i.member.user.id, member: toMember(i.guild_id, i.member) };
  if (i.type === InteractionType.MessageComponent) return pressButton(deps, ref, press, i.data.custom_id);
  const formId = parseApplicationFormDialog(i.data.custom_id);
  const work = formId === undefined ? async () => UNKNOWN_BUTTON_ANSWER : () => submitFromForm(deps, { ...press, values: dialogValues(i) }, formId);
  await answerInteraction(deps, ref, work);
};
