import { proxyActivities } from '@temporalio/workflow';
import type { GiveawaysActivities } from '../../activities/giveaways.js';
import type { GiveawayInput, GiveawayOutcome } from '../../src/giveaways/ids.js';
import { BOUNDED_PLATFORM_EFFECT } from '../activityProfiles.js';
import { activityFailureType } from '../refusalCode.js';

// The draw already stands: an effect that keeps failing is recorded among the queued actions, the others still run.
const effects = proxyActivities<GiveawaysActivities>(BOUNDED_PLATFORM_EFFECT);

/** A cancelled giveaway: `mark` records it in the run's state, then its message (when posted) shows the cancel. */
export async function finishCancelled(input: GiveawayInput, mark: () => void): Promise<GiveawayOutcome> {
  mark();
  await effects.editGiveawayMessage(input.guildId, input.giveawayId, null).catch((err: unknown) => void activityFailureType(err));
  return { status: 'cancelled', draws: 0 };
}

/** The bot side of a stored draw: message edited, winners announced, each winner DMed; a failure is recorded, the rest go on. */
export async function applyDraw(guildId: string, giveawayId: number, drawNumber: number): Promise<void> {
  const attempt = async (type: 'edit' | 'announce' | 'dm', effect: () => Promise<unknown>, userId?: string) => {
    try {
      await effect();
    } catch (err) {
      await effects.failGiveawayAction(guildId, giveawayId, type, drawNumber, activityFailureType(err), userId);
    }
  };
  await attempt('edit', () => effects.editGiveawayMessage(guildId, giveawayId, drawNumber));
  await attempt('announce', () => effects.announceDraw(guildId, giveawayId, drawNumber));
  for (const userId of await effects.drawWinnersToDm(guildId, giveawayId, drawNumber)) {
    await attempt('dm', () => effects.dmWinner(guildId, giveawayId, drawNumber, userId), userId);
  }
}
