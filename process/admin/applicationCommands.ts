import type { ApplicationPanel } from '../../db/applications/panels.js';
import { publishApplicationPanel, type ApplicationPanelChange } from '../../src/applications/publishApplicationPanel.js';
import type { PanelOutcome } from '../../src/core/panelMessages.js';
import { optional, snowflake, text, wholeNumber } from './args.js';
import { defineCommand, GUILD_FLAG, OPERATOR_FLAG, operatorActor, type AdminContext, type CommandGroup } from './command.js';
import { PANEL_FLAG, panelNumber, panelPlatform } from './panelFlags.js';

// `applications panel post|update`: the application panel's message, one apply button per form, posted by the bot
// (Discord shows buttons only on its own messages) and edited in place after that.

const SETTINGS = {
  channel: { type: 'string', placeholder: 'ID', help: 'the text channel the panel is posted in' },
  text: { type: 'string', placeholder: 'TEXT', help: "the panel's text (up to 2,000 characters)" },
  forms: { type: 'string', placeholder: 'N,N|all', help: 'the forms it shows, in order (up to 25; all: every form, in console order; the default)' },
} as const;

type Flags = { [K in keyof typeof SETTINGS]: string | undefined } & { guild: string; panel: string; operator?: string };

const formList = (value: string) => (value === 'all' ? null : value.split(',').map((v) => wholeNumber(v.trim(), 'forms', 1, 2_147_483_647)));

const view = (p: ApplicationPanel, outcome: PanelOutcome) => ({
  guildId: p.guildId,
  panelId: p.panelId,
  channelId: p.channelId,
  text: p.text,
  formIds: p.formIds,
  messageId: p.message?.messageId ?? null,
  outcome,
});

async function run(flags: Flags, ctx: AdminContext, mode: 'post' | 'update') {
  const guildId = snowflake(flags.guild, 'guild');
  const panelId = panelNumber(flags.panel);
  const change: ApplicationPanelChange = {
    channelId: optional(flags.channel, (v) => snowflake(v, 'channel')),
    text: optional(flags.text, (v) => text(v, 'text', 2000)),
    formIds: optional(flags.forms, formList),
  };
  const { panel, outcome } = await publishApplicationPanel(
    { db: ctx.db, platform: panelPlatform(ctx), clock: ctx.clock },
    { guildId, panelId, change, mode, actor: operatorActor(ctx, flags.operator) },
  );
  return {
    json: view(panel, outcome),
    text: [
      `Application panel ${panelId} of guild ${guildId} ${outcome} in channel ${panel.channelId} (message ${panel.message?.messageId}), showing ${panel.formIds ? `forms ${panel.formIds.join(', ')}` : 'every form'}.`,
    ],
  };
}

export const applicationGroup: CommandGroup = {
  name: 'applications',
  summary: "a server's application panels",
  commands: [
    defineCommand({
      name: 'panel post',
      summary: 'post an application panel (an apply button per form) in a channel, or change it in place if it was posted; needs the Applications feature',
      flags: { ...GUILD_FLAG, ...PANEL_FLAG, ...SETTINGS, channel: { ...SETTINGS.channel, required: true }, text: { ...SETTINGS.text, required: true }, ...OPERATOR_FLAG },
      run: (flags, ctx) => run(flags, ctx, 'post'),
    }),
    defineCommand({
      name: 'panel update',
      summary: "change a posted application panel, or refresh its buttons after forms changed: edited in place (posted again if it was deleted)",
      flags: { ...GUILD_FLAG, ...PANEL_FLAG, ...SETTINGS, ...OPERATOR_FLAG },
      run: (flags, ctx) => run(flags, ctx, 'update'),
    }),
  ],
};
