// The custom_id of the entry button on a giveaway's message, written and read here only, so the message the
// giveaway posts and the bot that takes the press agree.

const ENTER = /^giveaway:enter:(\d{1,10})$/;

export const GIVEAWAY_ENTER_LABEL = 'Enter';

export const giveawayEnterButtonId = (giveawayId: number) => `giveaway:enter:${giveawayId}`;

/** The giveaway an entry button belongs to, undefined for any other custom_id. */
export function parseGiveawayEnterButton(customId: string): number | undefined {
  const m = ENTER.exec(customId);
  const id = m ? Number(m[1]) : undefined;
  return id !== undefined && id >= 1 && id <= 2_147_483_647 ? id : undefined;
}
