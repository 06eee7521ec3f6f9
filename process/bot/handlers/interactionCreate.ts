import {
  InteractionType,
  type APIInteraction,
  type APIInteractionGuildMember,
  type APIMessageComponentInteraction,
  type APIModalSubmitInteraction,
} from 'discord-api-types/v10';
import { isInteractionHandled } from '../../../db/platform/interactions.js';
import { parseAppealFormDialog, parseAppealOpenButton } from '../../../src/appeals/appealForm.js';
import { parseApplicationApplyButton, parseApplicationFormDialog } from '../../../src/applications/applicationButtons.js';
import { parseGiveawayEnterButton } from '../../../src/giveaways/giveawayButtons.js';
import type { InteractionRef } from '../../../src/platform/discord/interactionReplies.js';
import { toMember } from '../../../src/platform/discord/discordShapes.js';
import { parseTicketPanelButton } from '../../../src/tickets/panelButtons.js';
import type { BotDeps, DispatchHandler } from '../handler.js';
import { completeCommand, runCommand } from '../commands/runCommand.js';
import { answerInteraction } from '../interactions/answerInteraction.js';
import { fileFromForm, showAppealForm } from '../interactions/appealForm.js';
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
 * INTERACTION_CREATE: an application command used (process/bot/commands), an option typed (autocomplete), a button
 * pressed or a dialog submitted, acknowledged within Discord's 3 s and answered (to the
 * member alone) from the outcome of the use case its `simulate` command calls. Appeals come from anywhere (a banned
 * user is outside the server, so their custom_id names it); everything else from inside a server. An interaction
 * already acted on (a replayed dispatch) is neither acted on nor answered again.
 */
export const interactionCreate: DispatchHandler = async (data, deps) => {
  const d = data as APIInteraction;
  if (d.type === InteractionType.ApplicationCommandAutocomplete) return completeCommand(deps, d);
  if (d.type !== InteractionType.MessageComponent && d.type !== InteractionType.ModalSubmit && d.type !== InteractionType.ApplicationCommand) return;
  if (await isInteractionHandled(deps.db, d.id)) return;
  if (d.type === InteractionType.ApplicationCommand) return runCommand(deps, d);
  const i = d as APIMessageComponentInteraction | APIModalSubmitInteraction;
  const ref = { id: i.id, token: i.token, applicationId: i.application_id };
  const userId = i.member?.user.id ?? i.user?.id;
  if (!userId) return;
  const isButton = i.type === InteractionType.MessageComponent;
  const appealGuild = isButton ? parseAppealOpenButton(i.data.custom_id) : parseAppealFormDialog(i.data.custom_id);
  if (appealGuild !== undefined) {
    if (isButton) return showAppealForm(deps, ref, appealGuild);
    return answerInteraction(deps, ref, () => fileFromForm(deps, { interactionId: i.id, guildId: appealGuild, userId, values: dialogValues(i) }));
  }
  if (!i.guild_id || !i.member) return answerInteraction(deps, ref, async () => UNKNOWN_BUTTON_ANSWER);
  const inServer = i as InServer<typeof i>;
  const press: ButtonPress = { interactionId: i.id, guildId: inServer.guild_id, userId, member: toMember(inServer.guild_id, inServer.member) };
  if (isButton) return pressButton(deps, ref, press, i.data.custom_id);
  const formId = parseApplicationFormDialog(i.data.custom_id);
  const work = formId === undefined ? async () => UNKNOWN_BUTTON_ANSWER : () => submitFromForm(deps, { ...press, values: dialogValues(i) }, formId);
  await answerInteraction(deps, ref, work);
};
