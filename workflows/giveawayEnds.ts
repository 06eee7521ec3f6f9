import { proxyActivities } from '@temporalio/workflow';
import type { GiveawaysActivities } from '../activities/giveaways.js';
import type { EndBatchResult } from '../src/giveaways/ids.js';
import { EVERY_SECOND_PASS } from './activityProfiles.js';

const { endDueGiveaways } = proxyActivities<GiveawaysActivities>(EVERY_SECOND_PASS);

/**
 * Run every second by the `giveaways/ends` schedule (src/giveaways/schedules.ts): draws the giveaways whose end is
 * due and applies their effects in one activity, for all of them (docs/performance.md, "Giveaway ends").
 */
export async function giveawayEnds(): Promise<EndBatchResult> {
  return endDueGiveaways();
}
