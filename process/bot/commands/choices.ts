import type { Choice } from './command.js';

// An autocomplete answer as Discord takes it (https://docs.discord.com/developers/interactions/receiving-and-responding#interaction-response-object-autocomplete):
// at most 25 choices, each a name of 1 to 100 characters and a value of the option's type (strings: 1 to 100).
// Anything past these and Discord refuses the whole answer (50035), so the member sees no suggestions at all.

export const MAX_CHOICES = 25;
const MAX_NAME = 100;

/**
 * A suggestion whose name fits: cut by code point (a cut emoji would be a lone surrogate, refused too) with an ellipsis
 * when longer, and the value shown when the name is blank. Values are ids, short by construction.
 */
export function choiceOf(name: string, value: string): Choice {
  const points = [...name.trim()];
  const fitted = points.length > MAX_NAME ? `${points.slice(0, MAX_NAME - 1).join('').trimEnd()}…` : points.join('');
  return { name: fitted || value, value };
}

/** The first 25 suggestions: Discord shows no more and refuses an answer with more. */
export const firstChoices = (choices: Choice[]): Choice[] => choices.slice(0, MAX_CHOICES);
