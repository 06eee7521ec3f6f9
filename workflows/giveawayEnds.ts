import { patched, proxyActivities } from '@temporalio/workflow';
import type { GiveawaysActivities } from '../activities/giveaways.js';
import type { EndBatchResult } from '../src/giveaways/ids.js';
import { EVERY_SECOND_PASS, EVERY_SECOND_PASS_HEARTBEATING } from './activityProfiles.js';

const untilTimeout = proxyActivities<GiveawaysActivities>(EVERY_SECOND_PASS);
const heartbeating = proxyActivities<GiveawaysActivities>(EVERY_SECOND_PASS_HEARTBEATING);

/**
 * Run every second by the `giveaways/ends` schedule (src/giveaways/schedules.ts): draws the giveaways whose end is
 * due and applies their effects in one activity, for all of them (docs/performance.md, "Giveaway ends").
 * Patch `giveaway-ends-heartbeat`: the activity heartbeats, so a dead worker holds the schedule for the heartbeat
 * timeout rather than the 30 s start-to-close; runs from before it keep the old options.
 */
export async function giveawayEnds(): Promise<EndBatchResult> {
  return (patched('giveaway-ends-heartbeat') ? heartbeating : untilTimeout).endDueGiveaways();
}
