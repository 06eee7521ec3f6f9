import { claimInteraction } from '../../../db/platform/interactions.js';
import type { PlatformMember } from '../../../src/core/platform.js';
import { enterGiveaway } from '../../../src/giveaways/enterGiveaway.js';
import { GiveawayRefusal } from '../../../src/giveaways/giveawayRefusal.js';
import type { BotDeps } from '../handler.js';

export interface ButtonPress {
  interactionId: string;
  guildId: string;
  userId: string;
  /** The member as the press shows them (Discord sends their roles and join date with it). */
  member: PlatformMember;
}

const REFUSED: Partial<Record<GiveawayRefusal['code'], string>> = {
  GIVEAWAY_NOT_FOUND: 'This giveaway no longer exists.',
  GIVEAWAY_NOT_ACTIVE: 'This giveaway is not taking entries right now.',
  FEATURE_DISABLED: 'Giveaways are turned off on this server.',
  GUILD_NOT_FOUND: 'This server does not use giveaways.',
};

/** The press of a giveaway's entry button: the entry `simulate giveaway-entry` records, answered from its outcome. */
export async function enterFromButton(deps: BotDeps, press: ButtonPress, giveawayId: number): Promise<string | null> {
  const at = deps.clock.now();
  try {
    const entry = await deps.db.transaction().execute(async (trx) => {
      if (!(await claimInteraction(trx, press.interactionId, press.guildId, at))) return null;
      return enterGiveaway(trx, { guildId: press.guildId, giveawayId, userId: press.userId, member: press.member, at, actor: { type: 'system' } });
    });
    if (!entry) return null;
    if (!entry.entered) return 'You have already entered this giveaway. Good luck!';
    const tickets = entry.tickets === 1 ? '1 entry' : `${entry.tickets} entries`;
    return `You entered the giveaway with ${tickets}${entry.paid > 0 ? ` (${entry.paid} paid)` : ''}. Good luck!`;
  } catch (err) {
    if (err instanceof GiveawayRefusal) return REFUSED[err.code] ?? `You cannot enter this giveaway: ${err.message}`;
    throw err;
  }
}
