import type { TicketPanel } from '../../db/tickets/panels.js';
import type { PanelOutcome } from '../../src/core/panelMessages.js';
import { publishTicketPanel } from '../../src/tickets/publishTicketPanel.js';
import type { TicketPanelChange } from '../../src/tickets/ticketPanelRules.js';
import { optional, snowflake, text } from './args.js';
import { defineCommand, GUILD_FLAG, OPERATOR_FLAG, operatorActor, type AdminCommand, type AdminContext } from './command.js';
import { idList, idOrNone, PANEL_FLAG, panelNumber, panelPlatform } from './panelFlags.js';

// `tickets panel post|update`: the ticket panel's message, posted by the bot (Discord shows buttons only on its own
// messages) and edited in place after that, through the use case the console calls.

const SETTINGS = {
  channel: { type: 'string', placeholder: 'ID', help: 'the text channel the panel is posted in' },
  text: { type: 'string', placeholder: 'TEXT', help: "the panel's text (title and text up to 2,000 characters together)" },
  label: { type: 'string', placeholder: 'TEXT', help: "the open button's label (1 to 80 characters)" },
  title: { type: 'string', placeholder: 'TEXT|none', help: "a bold first line, also the tickets' panelTitle (up to 100 characters)" },
  category: { type: 'string', placeholder: 'ID|none', help: "the category tickets' channels open under (none: the top of the list)" },
  'staff-roles': { type: 'string', placeholder: 'ID,ID|none', help: "the roles that see tickets' channels (up to 10)" },
} as const;

type Flags = { [K in keyof typeof SETTINGS]: string | undefined } & { guild: string; panel: string; operator?: string };

const view = (p: TicketPanel, outcome: PanelOutcome) => ({
  guildId: p.guildId,
  panelId: p.panelId,
  channelId: p.channelId,
  title: p.title,
  text: p.text,
  buttonLabel: p.buttonLabel,
  categoryId: p.categoryId,
  staffRoleIds: p.staffRoleIds,
  messageId: p.message?.messageId ?? null,
  outcome,
});

async function run(flags: Flags, ctx: AdminContext, mode: 'post' | 'update') {
  const guildId = snowflake(flags.guild, 'guild');
  const panelId = panelNumber(flags.panel);
  const change: TicketPanelChange = {
    channelId: optional(flags.channel, (v) => snowflake(v, 'channel')),
    text: optional(flags.text, (v) => text(v, 'text', 2000)),
    buttonLabel: optional(flags.label, (v) => text(v, 'label', 80)),
    title: optional(flags.title, (v) => (v === 'none' ? null : text(v, 'title', 100))),
    categoryId: optional(flags.category, (v) => idOrNone(v, 'category')),
    staffRoleIds: optional(flags['staff-roles'], (v) => idList(v, 'staff-roles')),
  };
  const { panel, outcome } = await publishTicketPanel(
    { db: ctx.db, platform: panelPlatform(ctx), clock: ctx.clock },
    { guildId, panelId, change, mode, actor: operatorActor(ctx, flags.operator) },
  );
  return {
    json: view(panel, outcome),
    text: [
      `Ticket panel ${panelId} of guild ${guildId} ${outcome} in channel ${panel.channelId} (message ${panel.message?.messageId}).`,
      `  tickets open under ${panel.categoryId ? `category ${panel.categoryId}` : 'no category'}, seen by ${panel.staffRoleIds.length ? `roles ${panel.staffRoleIds.join(', ')}` : 'no staff role'}.`,
    ],
  };
}

export const ticketPanelCommands: AdminCommand[] = [
  defineCommand({
    name: 'panel post',
    summary: "post a ticket panel (its open button) in a channel, or change it in place if it was posted; needs the Tickets feature",
    flags: {
      ...GUILD_FLAG,
      ...PANEL_FLAG,
      ...SETTINGS,
      channel: { ...SETTINGS.channel, required: true },
      text: { ...SETTINGS.text, required: true },
      label: { ...SETTINGS.label, required: true },
      ...OPERATOR_FLAG,
    },
    run: (flags, ctx) => run(flags, ctx, 'post'),
  }),
  defineCommand({
    name: 'panel update',
    summary: 'change a posted ticket panel: its message is edited in place (posted again if it was deleted); unchanged flags keep their value',
    flags: { ...GUILD_FLAG, ...PANEL_FLAG, ...SETTINGS, ...OPERATOR_FLAG },
    run: (flags, ctx) => run(flags, ctx, 'update'),
  }),
];
