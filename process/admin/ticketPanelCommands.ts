import type { TicketPanel } from '../../db/tickets/panels.js';
import type { PanelOutcome } from '../../src/core/panelMessages.js';
import { publishTicketPanel } from '../../src/tickets/publishTicketPanel.js';
import { optional, snowflake, text } from './args.js';
import { panelCommands } from './panelCommands.js';
import { idList, idOrNone } from './panelFlags.js';

// `tickets panel post|update`: the ticket panel's message and its open button, through the use case the console calls.

const SETTINGS = {
  channel: { type: 'string', placeholder: 'ID', help: 'the text channel the panel is posted in' },
  text: { type: 'string', placeholder: 'TEXT', help: "the panel's text (title and text up to 2,000 characters together)" },
  label: { type: 'string', placeholder: 'TEXT', help: "the open button's label (1 to 80 characters)" },
  title: { type: 'string', placeholder: 'TEXT|none', help: "a bold first line, also the tickets' panelTitle (up to 100 characters)" },
  category: { type: 'string', placeholder: 'ID|none', help: "the category tickets' channels open under (none: the top of the list)" },
  'staff-roles': { type: 'string', placeholder: 'ID,ID|none', help: "the roles that see tickets' channels (up to 10)" },
} as const;

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

export const ticketPanelCommands = panelCommands({
  settings: SETTINGS,
  requiredOnPost: ['channel', 'text', 'label'],
  summary: {
    post: "post a ticket panel (its open button) in a channel, or change it in place if it was posted; needs the Tickets feature",
    update: 'change a posted ticket panel: its message is edited in place (posted again if it was deleted); unchanged flags keep their value',
  },
  change: (flags) => ({
    channelId: optional(flags.channel, (v) => snowflake(v, 'channel')),
    text: optional(flags.text, (v) => text(v, 'text', 2000)),
    buttonLabel: optional(flags.label, (v) => text(v, 'label', 80)),
    title: optional(flags.title, (v) => (v === 'none' ? null : text(v, 'title', 100))),
    categoryId: optional(flags.category, (v) => idOrNone(v, 'category')),
    staffRoleIds: optional(flags['staff-roles'], (v) => idList(v, 'staff-roles')),
  }),
  publish: publishTicketPanel,
  output: (panel, outcome, { guildId, panelId }) => ({
    json: view(panel, outcome),
    text: [
      `Ticket panel ${panelId} of guild ${guildId} ${outcome} in channel ${panel.channelId} (message ${panel.message?.messageId}).`,
      `  tickets open under ${panel.categoryId ? `category ${panel.categoryId}` : 'no category'}, seen by ${panel.staffRoleIds.length ? `roles ${panel.staffRoleIds.join(', ')}` : 'no staff role'}.`,
    ],
  }),
});
