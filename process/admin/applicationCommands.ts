import type { ApplicationPanel } from '../../db/applications/panels.js';
import { publishApplicationPanel } from '../../src/applications/publishApplicationPanel.js';
import type { PanelOutcome } from '../../src/core/panelMessages.js';
import { optional, snowflake, text, wholeNumber } from './args.js';
import type { CommandGroup } from './command.js';
import { panelCommands } from './panelCommands.js';

// `applications panel post|update`: the application panel's message, one apply button per form.

const SETTINGS = {
  channel: { type: 'string', placeholder: 'ID', help: 'the text channel the panel is posted in' },
  text: { type: 'string', placeholder: 'TEXT', help: "the panel's text (up to 2,000 characters)" },
  forms: { type: 'string', placeholder: 'N,N|all', help: 'the forms it shows, in order (up to 25; all: every form, in console order; the default)' },
} as const;

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

export const applicationGroup: CommandGroup = {
  name: 'applications',
  summary: "a server's application panels",
  commands: panelCommands({
    settings: SETTINGS,
    requiredOnPost: ['channel', 'text'],
    summary: {
      post: 'post an application panel (an apply button per form) in a channel, or change it in place if it was posted; needs the Applications feature',
      update: "change a posted application panel, or refresh its buttons after forms changed: edited in place (posted again if it was deleted)",
    },
    change: (flags) => ({
      channelId: optional(flags.channel, (v) => snowflake(v, 'channel')),
      text: optional(flags.text, (v) => text(v, 'text', 2000)),
      formIds: optional(flags.forms, formList),
    }),
    publish: publishApplicationPanel,
    output: (panel, outcome, { guildId, panelId }) => ({
      json: view(panel, outcome),
      text: [
        `Application panel ${panelId} of guild ${guildId} ${outcome} in channel ${panel.channelId} (message ${panel.message?.messageId}), showing ${panel.formIds ? `forms ${panel.formIds.join(', ')}` : 'every form'}.`,
      ],
    }),
  }),
};
