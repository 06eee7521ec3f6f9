import { ApplicationCommandOptionType } from 'discord-api-types/v10';
import { readForms } from '../../../src/applications/readApplications.js';
import { showApplicationForm } from '../interactions/applicationForm.js';
import type { BotCommand } from './command.js';
import { choiceOf } from './choices.js';

/**
 * `/apply form`: the form's dialog, as its panel button shows it (the dialog's submission is the same
 * `submitApplication`). The form option suggests the open forms; a typed id or exact title works too.
 */
export const applyCommand: BotCommand = {
  definition: {
    name: 'apply',
    description: 'Apply through one of the server’s application forms',
    options: [{ type: ApplicationCommandOptionType.String, name: 'form', description: 'The form to fill in', required: true, autocomplete: true, max_length: 100 }],
  },
  feature: 'applications',
  async respond({ deps, ref, guildId, options }) {
    const typed = options.string('form') ?? '';
    const { items } = await readForms(deps.db, guildId);
    const form = /^\d{1,10}$/.test(typed) ? items.find((f) => f.id === Number(typed)) : items.find((f) => f.title.toLowerCase() === typed.trim().toLowerCase());
    if (!form) return deps.replies.reply(ref, 'There is no such application form.');
    return showApplicationForm(deps, ref, guildId, form.id);
  },
  async complete({ deps, guildId }, typed) {
    const { items } = await readForms(deps.db, guildId);
    const needle = typed.trim().toLowerCase();
    return items.filter((f) => f.open && f.title.toLowerCase().includes(needle)).map((f) => choiceOf(f.title, String(f.id)));
  },
};
