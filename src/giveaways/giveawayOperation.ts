import type { Kysely } from 'kysely';
import { listUnstartedGiveaways, markGiveawayStarted, type GiveawayRecord } from '../../db/giveaways/giveaways.js';
import type { Database } from '../../db/schema.js';
import type { Operation } from '../core/temporal/operation.js';
import type { WorkflowOf } from '../core/temporal/workflowRef.js';
import { giveawayWorkflow, giveawayWorkflowId, REROLL_WINDOW_MS, type GiveawayInput } from './ids.js';

/** The giveaway workflow's function type, from its ref (bound to the workflow itself in process/workflowRefs.ts). */
export type GiveawayWorkflow = WorkflowOf<typeof giveawayWorkflow>;

export const giveawayInput = (g: Pick<GiveawayRecord, 'guildId' | 'id' | 'startsAt' | 'endsAt'>): GiveawayInput => ({
  guildId: g.guildId,
  giveawayId: g.id,
  startsAtMs: g.startsAt.getTime(),
  endsAtMs: g.endsAt.getTime(),
  rerollWindowMs: REROLL_WINDOW_MS,
});

/** A giveaway's whole life, by workflow `giveaway/<guild>/<id>`, started right after the POST commits. */
export const giveawayOperation: Operation<GiveawayRecord, GiveawayWorkflow, Kysely<Database>> = {
  workflow: giveawayWorkflow,
  workflowId: (g) => giveawayWorkflowId(g.guildId, g.id),
  args: (g) => [giveawayInput(g)],
  operation: () => 'giveaways.run',
  guildId: (g) => g.guildId,
  summary: (g, by) => `Giveaway #${g.id} "${g.prize.slice(0, 60)}" (${g.winnersCount} winner${g.winnersCount === 1 ? '' : 's'})${by}`,
  listUnstarted: listUnstartedGiveaways,
  markStarted: (db, g, at) => markGiveawayStarted(db, g.guildId, g.id, at),
};
